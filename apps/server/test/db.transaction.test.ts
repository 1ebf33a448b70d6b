/**
 * withTransaction: a transaction whose BEGIN fails gives its connection back (Drizzle's own
 * pooled transaction kept it checked out for good: drizzle-orm issues 6023, 6114, 6241), so a pool of one
 * connection still serves the next statement; so does one whose connection died under it. A batch's
 * transaction runs its named statements with their generic plans, and only that transaction; those
 * plans read by key even when made while a table was small. The BEGIN leaves in the same write as the
 * work's first statement (pipelined), and a BEGIN that fails takes what was sent behind it along.
 * It says when its COMMIT leaves, for group commit (a batch that fails after that is not run again). With
 * `commitBehindLast` the COMMIT leaves behind the work's last statement, before that is answered; a failed
 * last statement makes it a ROLLBACK (said, so the batch may run again), and no statement goes after it.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, queryNamed, type Tx } from '../src/db/client.ts';
import { sqlErrorOf } from '../src/db/errors.ts';
import { pgArray } from '../src/db/pg-array.ts';
import { commitBehind, withTransaction } from '../src/db/transaction.ts';
import { testDatabaseUrl } from './test-db.ts';

let database: Database;

beforeAll(async () => {
  database = await openDatabase({ databaseUrl: testDatabaseUrl(), dataDir: 'memory://', poolSize: 1 });
});

afterAll(async () => {
  await database.close();
});

describe('withTransaction', () => {
  it('gives the connection back when BEGIN fails, and the one-connection pool goes on', async () => {
    for (let i = 0; i < 3; i++) {
      const failed = await withTransaction(database.db, async () => 'never', { first: 'SELECT 1/0' }).then(
        () => null,
        (err: unknown) => err,
      );
      expect(sqlErrorOf(failed).code).toBe('22012');
    }
    // A level PostgreSQL does not know never reaches it: no statement behind it may run outside a transaction.
    await expect(
      withTransaction(database.db, async () => 'never', { isolationLevel: 'no such level' as never }),
    ).rejects.toThrow('unknown isolation level');
    expect(database.pool?.totalCount).toBeLessThanOrEqual(1);
    expect(database.pool?.waitingCount).toBe(0);
    const after = await withTransaction(
      database.db,
      async (tx) => (await tx.execute<{ n: number }>(sql`SELECT 4 AS n`)).rows,
    );
    expect(after).toEqual([{ n: 4 }]);
  });

  it('commits what the work did and rolls back what a failed work did', async () => {
    await database.db.execute(sql`CREATE TABLE IF NOT EXISTS tx_probe (v int)`);
    await database.db.execute(sql`TRUNCATE tx_probe`);
    await withTransaction(database.db, async (tx) => {
      await tx.execute(sql`INSERT INTO tx_probe VALUES (1)`);
    });
    await expect(
      withTransaction(database.db, async (tx) => {
        await tx.execute(sql`INSERT INTO tx_probe VALUES (2)`);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect((await database.db.execute<{ v: number }>(sql`SELECT v FROM tx_probe ORDER BY v`)).rows).toEqual([{ v: 1 }]);
    await database.db.execute(sql`DROP TABLE tx_probe`);
  });

  it('says when the COMMIT leaves: once, after the work, before the commit is answered; never for a failed work', async () => {
    const events: string[] = [];
    const result = await withTransaction(
      database.db,
      async (tx) => {
        await tx.execute(sql`SELECT 1`);
        events.push('work done');
        return 'ok';
      },
      { onCommitSent: () => events.push('commit sent') },
    );
    events.push(`answered ${result}`);
    expect(events).toEqual(['work done', 'commit sent', 'answered ok']);
    const failed: string[] = [];
    await expect(
      withTransaction(
        database.db,
        async () => {
          throw new Error('refused');
        },
        { onCommitSent: () => failed.push('commit sent') },
      ),
    ).rejects.toThrow('refused');
    expect(failed).toEqual([]);
  });

  it('with commitBehindLast, sends the COMMIT behind the last statement before it is answered', async () => {
    await database.db.execute(sql`CREATE TABLE IF NOT EXISTS tx_behind_probe (v int CHECK (v > 0))`);
    await database.db.execute(sql`TRUNCATE tx_behind_probe`);
    const rows = async () =>
      (await database.db.execute<{ v: number }>(sql`SELECT v FROM tx_behind_probe ORDER BY v`)).rows.map((r) => r.v);
    const insert = (tx: Tx, v: number) =>
      queryNamed(tx, 'tx_behind_insert', sql`INSERT INTO tx_behind_probe VALUES (${v}::int) RETURNING v`);
    const events: string[] = [];
    const hooks = {
      commitBehindLast: true,
      onCommitSent: () => events.push('commit sent'),
      onCommitRefused: () => events.push('commit refused'),
    };

    // Accepted: the COMMIT leaves before the last statement's answer, and both statements are kept.
    const result = await withTransaction(
      database.db,
      async (tx) => {
        await insert(tx, 1);
        const last = insert(tx, 2);
        commitBehind(tx);
        await last;
        events.push('last answered');
        return 'ok';
      },
      hooks,
    );
    expect(result).toBe('ok');
    expect(events).toEqual(['commit sent', 'last answered']);
    expect(await rows()).toEqual([1, 2]);

    // The last statement fails: the COMMIT behind it answers ROLLBACK, said as refused; nothing is kept.
    events.length = 0;
    const failed = await withTransaction(
      database.db,
      async (tx) => {
        await insert(tx, 3);
        const last = insert(tx, -4);
        commitBehind(tx);
        await last;
      },
      hooks,
    ).then(
      () => null,
      (err: unknown) => err,
    );
    expect(sqlErrorOf(failed).code).toBe('23514');
    expect(events).toEqual(['commit sent', 'commit refused']);
    expect(await rows()).toEqual([1, 2]);

    // A statement after the COMMIT throws and never runs (it would run outside the transaction).
    events.length = 0;
    await expect(
      withTransaction(
        database.db,
        async (tx) => {
          const last = insert(tx, 5);
          commitBehind(tx);
          await last;
          await insert(tx, 6);
        },
        hooks,
      ),
    ).rejects.toThrow("A statement was sent after its transaction's COMMIT");
    expect(events).toEqual(['commit sent']);
    expect(await rows()).toEqual([1, 2, 5]);

    // A work that went on past a failed statement: the database rolled it back, and that is an error.
    await expect(
      withTransaction(database.db, async (tx) => {
        await insert(tx, 7);
        await insert(tx, -8).catch(() => {});
      }),
    ).rejects.toThrow('rolled back at its COMMIT');
    // Without commitBehindLast, commitBehind does nothing: the work goes on in its transaction.
    await withTransaction(database.db, async (tx) => {
      const first = insert(tx, 9);
      commitBehind(tx);
      await first;
      await insert(tx, 10);
    });
    expect(await rows()).toEqual([1, 2, 5, 9, 10]);
    await database.db.execute(sql`DROP TABLE tx_behind_probe`);
  });

  it('sends the BEGIN in the same write as the first statement, and nothing behind a failed BEGIN is kept', async () => {
    await database.db.execute(sql`CREATE TABLE IF NOT EXISTS tx_pipe_probe (v int)`);
    await database.db.execute(sql`TRUNCATE tx_pipe_probe`);
    // Count the socket's writes to PostgreSQL (the pool holds one connection).
    const client = await database.pool?.connect();
    const socket = (client as unknown as { connection: { stream: Record<string, unknown> } }).connection.stream;
    client?.release();
    let writes = 0;
    const own = { _write: socket._write, _writev: socket._writev };
    for (const key of ['_write', '_writev'] as const) {
      const original = own[key] as ((...args: unknown[]) => unknown) | undefined;
      if (original) {
        socket[key] = function (this: unknown, ...args: unknown[]) {
          writes++;
          return original.apply(this, args);
        };
      }
    }
    try {
      const rows = await withTransaction(database.db, async (tx) => {
        await tx.execute(sql`INSERT INTO tx_pipe_probe VALUES (1)`);
        return (await tx.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM tx_pipe_probe`)).rows;
      });
      expect(rows).toEqual([{ n: 1 }]);
      // BEGIN with the INSERT, the SELECT, the COMMIT: three writes where one round trip each made four.
      expect(writes).toBe(3);
    } finally {
      Object.assign(socket, own);
    }
    // The BEGIN's query fails (its `first` statement): the INSERT sent behind it fails too, nothing is kept.
    await expect(
      withTransaction(database.db, (tx) => tx.execute(sql`INSERT INTO tx_pipe_probe VALUES (2)`), {
        first: 'SELECT 1/0',
      }),
    ).rejects.toThrow();
    expect((await database.db.execute<{ v: number }>(sql`SELECT v FROM tx_pipe_probe ORDER BY v`)).rows).toEqual([
      { v: 1 },
    ]);
    await database.db.execute(sql`DROP TABLE tx_pipe_probe`);
  });

  it('gives back a connection that died inside the transaction, and the pool goes on', async () => {
    const failed = await withTransaction(database.db, async (tx) => {
      await tx.execute(sql`SELECT pg_terminate_backend(pg_backend_pid())`);
    }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(failed).toBeInstanceOf(Error);
    const after = await withTransaction(
      database.db,
      async (tx) => (await tx.execute<{ n: number }>(sql`SELECT 5 AS n`)).rows,
    );
    expect(after).toEqual([{ n: 5 }]);
    expect(database.pool?.waitingCount).toBe(0);
  });

  it('runs a batch with generic plans: its named statement is planned once, and the next transaction plans as usual', async () => {
    const probe = (tx: Tx, ids: number[]) =>
      queryNamed<{ n: number }>(
        tx,
        'tx_generic_probe',
        sql`SELECT count(*)::int AS n FROM unnest(${pgArray(ids)}::int[]) AS t(i) WHERE i = ANY(${pgArray(ids)}::int[])`,
      );
    for (const ids of [[1], [1, 2], [1, 2, 3], [4], [5, 6]]) {
      const mode = await withTransaction(
        database.db,
        async (tx) => {
          const [row] = await probe(tx, ids);
          expect(row?.n).toBe(ids.length);
          return (await tx.execute<{ mode: string }>(sql`SELECT current_setting('plan_cache_mode') AS mode`)).rows[0]
            ?.mode;
        },
        { genericPlans: true },
      );
      expect(mode).toBe('force_generic_plan');
    }
    const plans = await withTransaction(database.db, async (tx) => {
      const mode = (await tx.execute<{ mode: string }>(sql`SELECT current_setting('plan_cache_mode') AS mode`)).rows[0]
        ?.mode;
      const [row] = (
        await tx.execute<{ generic: string; custom: string }>(
          sql`SELECT generic_plans::text AS generic, custom_plans::text AS custom FROM pg_prepared_statements WHERE name = 'tx_generic_probe'`,
        )
      ).rows;
      return { mode, ...row };
    });
    // Five batches of three sizes: one generic plan reused, no custom plan; outside a batch, the default.
    expect(plans).toEqual({ mode: 'auto', generic: '5', custom: '0' });
  });
  it("reads by key under a batch's generic plan made while the table was small, once it has grown", async () => {
    await database.db.execute(sql`DROP TABLE IF EXISTS tx_plan_probe`);
    await database.db.execute(
      sql`CREATE TABLE tx_plan_probe (id bpchar(12) PRIMARY KEY, v int NOT NULL, state int NOT NULL)`,
    );
    await database.db.execute(
      sql`INSERT INTO tx_plan_probe SELECT lpad(i::text, 12, '0'), 0, 1 FROM generate_series(1, 10) AS i`,
    );
    const id = (i: number) => String(i).padStart(12, '0');
    const update = (tx: Tx, ids: string[], v: number) =>
      queryNamed<{ id: string }>(
        tx,
        'tx_plan_probe_update',
        sql`UPDATE tx_plan_probe p SET v = x.v
            FROM unnest(${pgArray(ids)}::bpchar[], ${pgArray(ids.map(() => v))}::int[]) AS x(id, v)
            WHERE p.id = x.id AND p.state = 1 RETURNING p.id`,
      );
    // Planned (generically, once for this connection) on 10 rows.
    await withTransaction(database.db, (tx) => update(tx, [id(1), id(2)], 1), { genericPlans: true });
    // The table grows a thousandfold with no ANALYZE, as within minutes of a busy start.
    await database.db.execute(
      sql`INSERT INTO tx_plan_probe SELECT lpad(i::text, 12, '0'), 0, 1 FROM generate_series(11, 10000) AS i`,
    );
    const plan = await withTransaction(
      database.db,
      async (tx) => {
        const rows = await update(tx, [id(5000), id(9999)], 2);
        expect(rows.map((r) => r.id).sort()).toEqual([id(5000), id(9999)]);
        const explained = await tx.execute<{ 'QUERY PLAN': string }>(
          sql.raw(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) EXECUTE tx_plan_probe_update('{${id(7)}}', '{3}')`),
        );
        return explained.rows.map((r) => r['QUERY PLAN']).join('\n');
      },
      { genericPlans: true },
    );
    // The kept plan finds the rows through the primary key: no pass over the 10,000 rows (about 50 pages).
    expect(plan).toContain('Index Scan using tx_plan_probe_pkey');
    expect(plan).not.toContain('Seq Scan');
    const hits = Number(/Buffers: shared hit=(\d+)/.exec(plan)?.[1]);
    expect(hits).toBeLessThan(20);
    const changed = await database.db.execute<{ id: string; v: number }>(
      sql`SELECT id, v FROM tx_plan_probe WHERE v <> 0 ORDER BY id`,
    );
    expect(changed.rows).toEqual([
      { id: id(1), v: 1 },
      { id: id(2), v: 1 },
      { id: id(7), v: 3 },
      { id: id(5000), v: 2 },
      { id: id(9999), v: 2 },
    ]);
    await database.db.execute(sql`DROP TABLE tx_plan_probe`);
  });
});
