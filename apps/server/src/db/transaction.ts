/** Runs work in one database transaction, retrying serialization failures and deadlocks (DESIGN §4). */
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgTransactionConfig } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Db, Tx } from './client.ts';
import { isDatabaseUnavailable, sqlErrorOf } from './errors.ts';
import * as schema from './schema/index.ts';

const RETRYABLE = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 4;

/** A Drizzle handle on one pooled connection, made once per connection. */
const onClient = new WeakMap<pg.PoolClient, Db>();

/**
 * Runs `work(tx)` in one transaction (`config`: isolation level, access mode) and returns its result;
 * rethrows what it throws. On PostgreSQL the connection is taken here and always given back, destroyed
 * when the database went away (issue 21 §2): Drizzle's own pooled `transaction()` (0.45.4) sends BEGIN
 * before its try/finally, so a BEGIN that fails (PgBouncer's server connection lost, a restart of the
 * primary) would keep the connection checked out for good, and a few of them empty the pool
 * (drizzle-orm issues 6023, 6114, 6241). Drizzle's transaction on one client releases nothing itself.
 */
export async function withTransaction<T>(
  db: Db,
  work: (tx: Tx) => Promise<T>,
  config?: PgTransactionConfig,
): Promise<T> {
  const pool = '$client' in db ? db.$client : undefined;
  if (!(pool instanceof pg.Pool)) return db.transaction(work, config);
  const client = await pool.connect();
  let failure: unknown = null;
  try {
    let handle = onClient.get(client);
    if (!handle) {
      handle = drizzlePg(client, { schema });
      onClient.set(client, handle);
    }
    return await handle.transaction(work, config);
  } catch (err) {
    failure = err;
    throw err;
  } finally {
    client.release(failure instanceof Error && isDatabaseUnavailable(failure) ? failure : undefined);
  }
}

/** Runs `work(tx)` in a transaction; retries up to 4 attempts on 40001/40P01. Rethrows anything else. */
export async function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await withTransaction(db, work);
    } catch (err) {
      const state = sqlErrorOf(err).code;
      if (attempt >= MAX_ATTEMPTS || !state || !RETRYABLE.has(state)) throw err;
    }
  }
}
