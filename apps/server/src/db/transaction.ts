/** Runs work in one database transaction, retrying serialization failures and deadlocks (DESIGN §4). */
import type { Db, Tx } from './client.ts';
import { sqlErrorOf } from './errors.ts';

const RETRYABLE = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 4;

/** Runs `work(tx)` in a transaction; retries up to 4 attempts on 40001/40P01. Rethrows anything else. */
export async function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (err) {
      const state = sqlErrorOf(err).code;
      if (attempt >= MAX_ATTEMPTS || !state || !RETRYABLE.has(state)) throw err;
    }
  }
}
