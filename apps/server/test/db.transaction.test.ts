/**
 * withTransaction (issue 21 §2): a transaction whose BEGIN fails gives its connection back (Drizzle's own
 * pooled transaction kept it checked out for good: drizzle-orm issues 6023, 6114, 6241), so a pool of one
 * connection still serves the next statement.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.ts';
import { sqlErrorOf } from '../src/db/errors.ts';
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
});
