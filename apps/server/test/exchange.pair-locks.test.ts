/**
 * The pair locks a batch of orders takes in its transaction's first round trip (`lockPairsText`)
 * are the locks `lockPairs` takes: the same keys, so a cancel or a pair's edit on another connection waits
 * for the batch; a pair id with quotes and backslashes is written as a literal and changes nothing else.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, type Tx } from '../src/db/client.ts';
import { pgArray } from '../src/db/pg-array.ts';
import { withTransaction } from '../src/db/transaction.ts';
import { lockPairs, lockPairsText } from '../src/modules/exchange/pairs.queries.ts';
import { testDatabaseUrl } from './test-db.ts';

let database: Database;

beforeAll(async () => {
  database = await openDatabase({ databaseUrl: testDatabaseUrl(), dataDir: 'memory://', poolSize: 3 });
});

afterAll(async () => {
  await database.close();
});

/** The advisory locks this transaction holds, as "namespace:key", sorted. */
async function heldLocks(tx: Tx): Promise<string[]> {
  const res = await tx.execute<{ lock: string }>(
    sql`SELECT classid::text || ':' || objid::text AS lock FROM pg_locks
        WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted ORDER BY 1`,
  );
  return res.rows.map((r) => r.lock);
}

const IDS = ['6543210fedcba9876543210f', "it's", 'back\\slash', '"quoted", {braced}', "it's"];

describe('lockPairsText', () => {
  it('takes the locks lockPairs takes, in the BEGIN round trip, and a second connection waits for them', async () => {
    const byStatement = await withTransaction(database.db, async (tx) => {
      await lockPairs(tx, IDS);
      return heldLocks(tx);
    });
    expect(byStatement).toHaveLength(4); // one per distinct id
    const byFirst = await withTransaction(
      database.db,
      async (tx) => {
        const held = await heldLocks(tx);
        // Another connection cannot take any of them while this transaction runs.
        const others = await withTransaction(database.db, async (other) => {
          const res = await other.execute<{ got: boolean }>(
            sql`SELECT bool_or(pg_try_advisory_xact_lock(${0x5eac}, hashtext(id))) AS got
                FROM unnest(${pgArray(IDS)}::text[]) AS id`,
          );
          return res.rows[0]?.got;
        });
        expect(others).toBe(false);
        return held;
      },
      { genericPlans: true, first: lockPairsText(IDS) },
    );
    expect(byFirst).toEqual(byStatement);
    // Released at the end of the transaction.
    const after = await withTransaction(database.db, (tx) => heldLocks(tx));
    expect(after).toEqual([]);
  });
});
