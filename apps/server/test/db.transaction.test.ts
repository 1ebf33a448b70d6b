/**
 * withTransaction (issue 21 §2): a transaction whose BEGIN fails gives its connection back (Drizzle's own
 * pooled transaction kept it checked out for good: drizzle-orm issues 6023, 6114, 6241), so a pool of one
 * connection still serves the next statement; so does one whose connection died under it. A batch's
 * transaction (issue 20) runs its named statements with their generic plans, and only that transaction.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, queryNamed, type Tx } from '../src/db/client.ts';
import { sqlErrorOf } from '../src/db/errors.ts';
import { pgArray } from '../src/db/pg-array.ts';
import { withTransaction } from '../src/db/transaction.ts';
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
      const failed = await withTransaction(database.db, async () => 'never', {
        isolationLevel: 'no such level' as never,
      }).then(
        () => null,
        (err: unknown) => err,
      );
      expect(sqlErrorOf(failed).code).toBe('42601');
    }
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
});
