/** Runs work in one database transaction, retrying serialization failures and deadlocks (DESIGN §4). */
import { sql } from 'drizzle-orm';
import { PgTransaction, type PgTransactionConfig } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Db, DbOrTx, Tx } from './client.ts';
import { corkSocket, drizzleTransactionOn } from './driver-internals.ts';
import { isDatabaseUnavailable, sqlErrorOf } from './errors.ts';

const RETRYABLE = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 4;

/**
 * How a transaction runs: Drizzle's isolation level and access mode, and `genericPlans`: its named
 * statements run with their generic plans (`plan_cache_mode`, set in the BEGIN's own round trip). For a
 * batch of group commit (DESIGN §9), whose statements take arrays of a size that changes every batch:
 * PostgreSQL's custom plans of them looked cheaper than the generic one, so it planned them again on every
 * batch.
 * Such a transaction also plans with `enable_seqscan` off. A generic plan is kept for the connection's
 * life, and one made while a table was small scans it whole, however large it grows until an ANALYZE.
 * Every statement of a batch reads by key, so no plan of it wants the scan.
 * And without JIT or parallel workers: a generic plan's guesses for an array or a range parameter can pass
 * jit_above_cost or the cost of a parallel plan (docs/decisions/0002-generic-plans.md).
 */
export interface TransactionOptions extends PgTransactionConfig {
  genericPlans?: boolean;
  /**
   * SQL text run first, in the BEGIN's own query (a simple query: no parameters, so its values are
   * literals escaped with pg's `escapeLiteral`), e.g. a batch's locks (`lockPairsText`): one round trip
   * fewer per transaction.
   */
  first?: string;
  /**
   * The work's last statement is one that calls `commitBehind` once it has sent it (the ledger's posting,
   * `postEntries`): the COMMIT then leaves right behind that statement, in the same round trip, instead of
   * after its answer (PostgreSQL only). Whatever must refuse the work has to make a statement
   * fail by then: a COMMIT behind a failed statement answers ROLLBACK and nothing is written, but one
   * behind a statement that only reported a problem commits. A statement sent after the COMMIT throws.
   */
  commitBehindLast?: boolean;
  /**
   * Called as the COMMIT leaves for the database (PostgreSQL only; on PGlite, where a commit is never lost
   * halfway, never). A failure after it may have been written: group commit does not run such a batch's
   * jobs again (lib/group-commit.ts), unless `onCommitRefused` follows.
   */
  onCommitSent?: () => void;
  /** Called when the database answered the COMMIT with ROLLBACK (a statement before it had failed): nothing was written. */
  onCommitRefused?: () => void;
}

/**
 * A read-only transaction whose named statements run with their generic plans, without JIT: for list reads
 * whose generic plan is good for any values (one index range in the list's order, the page size as text so
 * the joins are planned for that many rows), which PostgreSQL would otherwise plan again on every call, an
 * OFFSET parameter or a `created_at >= $n` looking expensive to it (planning could cost more than the read);
 * without JIT or parallel workers, as `genericPlans` says.
 */
export const GENERIC_READ: TransactionOptions = { genericPlans: true, accessMode: 'read only' };

/**
 * Runs the reads of `work` with their generic plans (`GENERIC_READ`): in a read-only transaction of their
 * own, or as they are inside a caller's transaction (whose settings then stand). Returns what `work` does.
 */
export function readWithGenericPlans<T>(db: DbOrTx, work: (q: DbOrTx) => Promise<T>): Promise<T> {
  return db instanceof PgTransaction ? work(db) : inTransaction(db, work, GENERIC_READ);
}

/** The transaction handle on one pooled connection, made once per connection. */
const onClient = new WeakMap<pg.PoolClient, Tx>();
/** Per transaction under way with `commitBehindLast`, by its handle: what sends its COMMIT (`commitBehind`). */
const commitSenders = new WeakMap<DbOrTx, () => void>();
/** Connections whose transaction's COMMIT has been sent: a statement sent on one now would run outside it. */
const committing = new WeakSet<pg.PoolClient>();

/**
 * Makes every statement sent on `client` while its COMMIT is under way throw instead of leaving: it would
 * run after the COMMIT, outside the transaction (`commitBehindLast`). Once per connection.
 */
function guardAfterCommit(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    if (committing.has(client)) throw new Error("A statement was sent after its transaction's COMMIT");
    return query(...args);
  }) as typeof client.query;
}

/** The transaction handle of `client`, made on its first transaction (with `guardAfterCommit`). */
function txOn(client: pg.PoolClient): Tx {
  let tx = onClient.get(client);
  if (!tx) {
    tx = drizzleTransactionOn(client);
    onClient.set(client, tx);
    guardAfterCommit(client);
  }
  return tx;
}

/**
 * Sends the COMMIT of the transaction `tx` now, behind the statement just sent on it, when the transaction
 * was opened with `commitBehindLast` (see `TransactionOptions`); does nothing otherwise (another caller's
 * transaction, the pool, PGlite). Called by the ledger's posting once its statement is on its way.
 */
export function commitBehind(tx: DbOrTx): void {
  commitSenders.get(tx)?.();
}

/**
 * The work of `tx` goes on after its next ledger posting: its COMMIT waits until the work ends instead of
 * leaving behind that posting (`commitBehindLast`). Does nothing when the COMMIT was not to go behind.
 */
export function holdCommit(tx: DbOrTx): void {
  commitSenders.delete(tx);
}

const ISOLATION_LEVELS = new Set(['read uncommitted', 'read committed', 'repeatable read', 'serializable']);
const ACCESS_MODES = new Set(['read only', 'read write']);

/**
 * The BEGIN statement of `opts` (one simple query: it may carry SET LOCALs and `first` after it). Throws
 * Error for a level or mode PostgreSQL does not know: the statements pipelined behind a BEGIN that fails
 * on a live connection would run outside any transaction, so nothing but these goes into it.
 */
function beginText(opts: TransactionOptions): string {
  if (opts.isolationLevel !== undefined && !ISOLATION_LEVELS.has(opts.isolationLevel)) {
    throw new Error(`unknown isolation level ${JSON.stringify(opts.isolationLevel)}`);
  }
  if (opts.accessMode !== undefined && !ACCESS_MODES.has(opts.accessMode)) {
    throw new Error(`unknown access mode ${JSON.stringify(opts.accessMode)}`);
  }
  let begin = 'BEGIN';
  if (opts.isolationLevel) begin += ` ISOLATION LEVEL ${opts.isolationLevel.toUpperCase()}`;
  if (opts.accessMode) begin += ` ${opts.accessMode.toUpperCase()}`;
  if (opts.deferrable !== undefined) begin += opts.deferrable ? ' DEFERRABLE' : ' NOT DEFERRABLE';
  if (opts.genericPlans) {
    begin +=
      '; SET LOCAL plan_cache_mode = force_generic_plan; SET LOCAL enable_seqscan = off' +
      '; SET LOCAL jit = off; SET LOCAL max_parallel_workers_per_gather = 0';
  }
  return opts.first ? `${begin}; ${opts.first}` : begin;
}

/**
 * Sends `begin` and, behind it in the same write, the statements `work` sends before it first waits for
 * an answer; resolves to what `work` resolves to once both are done. The pool's clients pipeline
 * (`pipeline: true`, `openDatabase`), so the BEGIN costs no round trip of its own: the server
 * runs them in order, and should the BEGIN's query fail, every statement behind it fails too (a BEGIN
 * whose `first` fails leaves the transaction aborted; a connection lost fails them all).
 */
async function pipelinedAfterBegin<T>(client: pg.PoolClient, begin: string, work: () => Promise<T>): Promise<T> {
  // The socket's writes wait until `uncork`: the BEGIN and the statements the work sends before it first
  // waits for an answer leave in one write.
  const uncork = corkSocket(client);
  const begun = client.query(begin);
  let working: Promise<T>;
  try {
    working = work();
  } catch (err) {
    working = Promise.reject(err);
  } finally {
    // After the microtasks now queued: a Drizzle query is a thenable that sends only once awaited.
    process.nextTick(uncork);
  }
  const [b, w] = await Promise.allSettled([begun, working]);
  if (b.status === 'rejected') throw b.reason;
  if (w.status === 'rejected') throw w.reason;
  return w.value;
}

/**
 * Runs `work(tx)` in one transaction (`opts`: isolation level, access mode, generic plans) and returns
 * its result; rethrows what it throws. On PostgreSQL the connection is taken here and always given back,
 * destroyed when the database went away or a ROLLBACK failed. The BEGIN, COMMIT and
 * ROLLBACK are sent here, not by Drizzle's pooled `transaction()` (0.45.4), which sends BEGIN before its
 * try/finally, so a BEGIN that fails (PgBouncer's server connection lost, a restart of the primary)
 * would keep the connection checked out for good (drizzle-orm issues 6023, 6114, 6241), and whose BEGIN
 * can carry nothing after it. On PGlite it is Drizzle's transaction (`genericPlans` does not apply; `first`
 * runs as its first statement).
 */
export async function withTransaction<T>(
  db: Db,
  work: (tx: Tx) => Promise<T>,
  opts: TransactionOptions = {},
): Promise<T> {
  const pool = '$client' in db ? db.$client : undefined;
  if (!(pool instanceof pg.Pool)) {
    // Drizzle's PGlite sends `SET TRANSACTION` for any config object, an empty one too.
    const { genericPlans: _, first, commitBehindLast: __, onCommitSent: ___, onCommitRefused: ____, ...config } = opts;
    return db.transaction(
      async (tx) => {
        if (first) await tx.execute(sql.raw(first));
        return work(tx);
      },
      Object.keys(config).length > 0 ? config : undefined,
    );
  }
  const begin = beginText(opts);
  const client = await pool.connect();
  let broken: Error | undefined;
  const tx = txOn(client);
  let commit: Promise<pg.QueryResult> | undefined;
  const sendCommit = (): Promise<pg.QueryResult> => {
    if (!commit) {
      commit = client.query('COMMIT');
      // Its failure is read below; until then it must not count as unhandled (the work may still be waiting).
      commit.catch(() => {});
      committing.add(client);
      opts.onCommitSent?.();
    }
    return commit;
  };
  try {
    let result: T;
    if (opts.commitBehindLast) commitSenders.set(tx, () => void sendCommit());
    try {
      result = await pipelinedAfterBegin(client, begin, () => work(tx));
    } catch (err) {
      if (commit) {
        // The COMMIT left behind the last statement: it answers ROLLBACK when a statement had failed.
        const answer = await commit.catch((commitErr: unknown) => {
          broken = commitErr instanceof Error ? commitErr : new Error('COMMIT failed');
        });
        if (answer?.command === 'ROLLBACK') opts.onCommitRefused?.();
        throw err;
      }
      await client.query('ROLLBACK').catch((rollbackErr: unknown) => {
        broken = rollbackErr instanceof Error ? rollbackErr : new Error('ROLLBACK failed');
      });
      throw err;
    }
    const answer = await sendCommit();
    if (answer.command !== 'COMMIT') {
      // A statement failed and the work went on regardless: the database rolled everything back.
      opts.onCommitRefused?.();
      throw new Error('The transaction was rolled back at its COMMIT: one of its statements had failed');
    }
    return result;
  } catch (err) {
    if (!broken && err instanceof Error && isDatabaseUnavailable(err)) broken = err;
    throw err;
  } finally {
    commitSenders.delete(tx);
    committing.delete(client);
    client.release(broken);
  }
}

/**
 * Runs `work(tx)` in a transaction (`opts` as for `withTransaction`); retries up to 4 attempts on
 * 40001/40P01. Rethrows anything else.
 */
export async function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>, opts?: TransactionOptions): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await withTransaction(db, work, opts);
    } catch (err) {
      const state = sqlErrorOf(err).code;
      if (attempt >= MAX_ATTEMPTS || !state || !RETRYABLE.has(state)) throw err;
    }
  }
}
