/**
 * queryPlanned: the busiest reads run as statements named after their SQL text, so PostgreSQL
 * parses and plans each shape once per connection; the answers are those of a plain query, on a pooled
 * connection, inside a transaction and on PGlite; behind PgBouncer in transaction mode they go unnamed.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, queryPlanned } from '../src/db/client.ts';
import { testDatabaseUrl } from './test-db.ts';

let database: Database;

beforeAll(async () => {
  // One connection, so every statement below meets the same session's prepared statements.
  database = await openDatabase({ databaseUrl: testDatabaseUrl(), dataDir: 'memory://', poolSize: 1 });
});

afterAll(async () => {
  await database.close();
});

const prepared = async () => {
  const res = await database.db.execute<{ name: string; statement: string }>(
    sql`SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'p\_%' ORDER BY statement`,
  );
  return res.rows;
};

describe('queryPlanned', () => {
  it('prepares a text once per connection, whatever its values, and answers like a plain query', async () => {
    const square = (n: number) => sql`SELECT ${n}::int * ${n}::int AS sq, 'planned' AS shape`;
    const first = await queryPlanned<{ sq: number }>(database.db, square(3));
    const second = await queryPlanned<{ sq: number }>(database.db, square(12));
    expect(first).toEqual([{ sq: 9, shape: 'planned' }]);
    expect(second).toEqual([{ sq: 144, shape: 'planned' }]);
    expect((await database.db.execute(square(12))).rows).toEqual(second);

    const shapes = (await prepared()).filter((p) => p.statement.includes("'planned'"));
    expect(shapes).toHaveLength(1);
    expect(shapes[0]?.name).toMatch(/^p_[\w-]{24}$/);

    // Another text is another statement with another name.
    await queryPlanned(database.db, sql`SELECT ${5}::int + 1 AS next, 'planned' AS shape`);
    const after = (await prepared()).filter((p) => p.statement.includes("'planned'"));
    expect(after).toHaveLength(2);
    expect(new Set(after.map((p) => p.name)).size).toBe(2);
  });

  it("runs inside a transaction on the transaction's own connection", async () => {
    const seen = await database.db.transaction(async (tx) => {
      await tx.execute(sql`CREATE TEMP TABLE planned_probe (v int) ON COMMIT DROP`);
      await tx.execute(sql`INSERT INTO planned_probe VALUES (41)`);
      return queryPlanned<{ v: number }>(tx, sql`SELECT v + ${1}::int AS v FROM planned_probe`);
    });
    expect(seen).toEqual([{ v: 42 }]);
  });

  it('is a plain query on the embedded database', async () => {
    const lite = await openDatabase({ dataDir: 'memory://' });
    try {
      expect(await queryPlanned(lite.db, sql`SELECT ${7}::int * 6 AS answer`)).toEqual([{ answer: 42 }]);
    } finally {
      await lite.close();
    }
  });
});

describe('behind PgBouncer in transaction mode (DATABASE_POOLER=transaction)', () => {
  it('sends every statement unnamed, on the pool and in a transaction, with the same answers', async () => {
    const pooled = await openDatabase({
      databaseUrl: testDatabaseUrl(),
      dataDir: 'memory://',
      poolSize: 1,
      pooler: 'transaction',
    });
    try {
      const shape = (n: number) => sql`SELECT ${n}::int * 2 AS twice, 'unnamed' AS shape`;
      expect(await queryPlanned(pooled.db, shape(4))).toEqual([{ twice: 8, shape: 'unnamed' }]);
      expect(await pooled.db.transaction((tx) => queryPlanned(tx, shape(5)))).toEqual([
        { twice: 10, shape: 'unnamed' },
      ]);
      // The pool's one connection holds no prepared statement of ours, though it ran both.
      const held = await pooled.db.execute<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE '%''unnamed''%'`,
      );
      expect(held.rows).toEqual([{ n: 0 }]);
    } finally {
      await pooled.close();
    }
  });
});
