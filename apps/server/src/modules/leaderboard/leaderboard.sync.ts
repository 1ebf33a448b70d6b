/**
 * The job that keeps the leaderboard: every second one replica (`withJobLock`) reads the
 * ledger rows stamped since the store's mark up to the committed horizon (`bank_tx_created`), plus the
 * members whose row changed (`users_updated_at`: deactivated, reactivated), reads those holders'
 * balances and flags as they are now, and writes them into the store; then moves the mark. The write path
 * (ledger.posting.ts) is untouched: no trigger, no index on `balances.amount` (DESIGN §9).
 */
import { fromNumeric } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { committedHorizon } from '../../db/horizon.ts';
import { inTransaction } from '../../db/transaction.ts';
import { type PeriodicJob, startPeriodic, withJobLock } from '../../lib/periodic.ts';
import { changedHolders, ledgerBacklogOver } from './leaderboard.queries.ts';
import type { LeaderboardStore, RankChange } from './leaderboard.store.ts';

const JOB = 'leaderboard';
/** Ours: how often the job follows the ledger. A posting shows within about this plus a tick. */
export const LEADERBOARD_EVERY_MS = 1000;
/** Ours: past this many ledger rows since the mark (a long stop), a rebuild is cheaper than following. */
const BACKLOG_LIMIT = 200_000;
/**
 * Ours: `users.updated_at` is stamped by the app's clock (users.queries.ts `updateUser`), not the
 * transaction's, so members are read again over this margin below the mark (re-reading is harmless).
 */
const USERS_MARGIN_MS = 10_000;

/** What a tick did: `busy` (another replica holds the job), `rebuilt`, or the number of holders re-read. */
export type TickResult = 'busy' | 'rebuilt' | number;

/** A one-millisecond step back: a horizon read as a JS Date loses its microseconds; overlap, never a gap. */
function horizonMark(h: Date): Date {
  return new Date(h.getTime() - 1);
}

async function rebuildIn(tx: DbOrTx, store: LeaderboardStore): Promise<void> {
  // The horizon first, in its own statement: every change not yet visible to the reads below is stamped
  // at or after it, so the next tick reads it.
  const h = horizonMark(await committedHorizon(tx));
  await store.rebuild(tx, h);
}

/**
 * One tick of the job on `store`: follows the ledger and the members from the store's mark to the
 * committed horizon (or rebuilds when the store was never built, was lost, or is far behind). Returns
 * what it did. Safe on every replica at once (one does it, the others answer `busy`); with `wait`, it
 * waits for the replica doing a tick and then does its own (tests).
 */
export async function syncLeaderboard(
  db: Db,
  store: LeaderboardStore,
  opts: { wait?: boolean } = {},
): Promise<TickResult> {
  const lock = opts.wait ? withJobLockWaiting : withJobLock;
  const done = await lock(db, JOB, async (tx): Promise<TickResult> => {
    const mark = await store.mark(tx);
    if (!mark) {
      await rebuildIn(tx, store);
      return 'rebuilt';
    }
    const h = horizonMark(await committedHorizon(tx));
    if (h <= mark) return 0;
    if (await ledgerBacklogOver(tx, mark, h, BACKLOG_LIMIT)) {
      await rebuildIn(tx, store);
      return 'rebuilt';
    }
    const rows = await changedHolders(tx, mark, new Date(mark.getTime() - USERS_MARGIN_MS), h);
    const changes: RankChange[] = rows.map((r) => ({
      currencyId: Number(r.currency_id),
      userId: r.user_id,
      amount: r.ranked ? fromNumeric(r.amount) : null,
    }));
    await store.apply(tx, changes, h);
    return rows.length;
  });
  return done ?? 'busy';
}

/**
 * Builds the kept ranking of `store` from scratch from `balances` (positive balances of active,
 * non-system members), waiting for a tick in progress on any replica. For first start (the job calls it
 * when the store has no mark), after a bulk load such as `make scale-seed` (whose ledger rows are
 * back-dated, below any mark), and tests.
 */
export async function rebuildLeaderboard(db: Db, store: LeaderboardStore): Promise<void> {
  await withJobLockWaiting(db, JOB, (tx) => rebuildIn(tx, store));
}

/** `withJobLock`'s lock, waited for (`pg_advisory_xact_lock`) instead of tried. */
async function withJobLockWaiting<T>(db: Db, name: string, work: (tx: Tx) => Promise<T>): Promise<T> {
  return inTransaction(db, async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`job:${name}`}))`);
    return work(tx);
  });
}

/** Starts the job on `store` (every `everyMs`, default 1 s). Stop it when the app closes. */
export function startLeaderboardJob(opts: {
  db: Db;
  store: LeaderboardStore;
  log: FastifyBaseLogger;
  everyMs?: number;
}): PeriodicJob {
  return startPeriodic({
    name: JOB,
    everyMs: opts.everyMs ?? LEADERBOARD_EVERY_MS,
    log: opts.log,
    tick: async () => {
      await syncLeaderboard(opts.db, opts.store);
    },
  });
}
