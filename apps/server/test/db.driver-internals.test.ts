/**
 * The drivers' private shapes that db/driver-internals.ts relies on (node-postgres's socket, Drizzle's
 * internal handle), on a real PostgreSQL connection: a `pg` or Drizzle upgrade that changes them fails
 * here, with an error naming that file, before any transaction runs on it.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corkSocket, DriverInternalsError, drizzleTransactionOn } from '../src/db/driver-internals.ts';
import { testDatabaseUrl } from './test-db.ts';

let pool: pg.Pool;
let client: pg.PoolClient;

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: testDatabaseUrl(), max: 1, pipeline: true });
  client = await pool.connect();
});

afterAll(async () => {
  client.release();
  await pool.end();
});

describe('the database drivers’ internals', () => {
  it('corks a pg client’s socket: what is sent while corked leaves when uncorked, in order', async () => {
    const uncork = corkSocket(client);
    const first = client.query('SELECT 1 AS n');
    const second = client.query('SELECT 2 AS n');
    let answered = false;
    void first.then(() => {
      answered = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Nothing left the process while corked, so nothing could be answered.
    expect(answered).toBe(false);
    uncork();
    expect((await first).rows).toEqual([{ n: 1 }]);
    expect((await second).rows).toEqual([{ n: 2 }]);
  });

  it('makes a Drizzle transaction handle that runs raw SQL and relational queries on the client', async () => {
    const tx = drizzleTransactionOn(client);
    await client.query('BEGIN');
    const rows = (await tx.execute<{ n: number }>(sql`SELECT 3 AS n`)).rows;
    const currencies = await tx.query.currencies.findMany({ columns: { ticker: true }, limit: 1 });
    await client.query('ROLLBACK');
    expect(rows).toEqual([{ n: 3 }]);
    expect(Array.isArray(currencies)).toBe(true);
  });

  it('fails loudly, naming the file to fix, when a client lacks the shape it relies on', () => {
    const changed = { connection: { socket: {} } } as unknown as pg.PoolClient;
    expect(() => corkSocket(changed)).toThrow(DriverInternalsError);
    expect(() => corkSocket(changed)).toThrow(/apps\/server\/src\/db\/driver-internals\.ts/);
  });
});
