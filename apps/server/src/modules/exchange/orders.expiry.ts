/**
 * Good-till-date orders (DESIGN §11.4): an open order with `expiresAt` is cancelled at that time (state 2,
 * Cancelled, marked `expired`), its escrow returned (category 21), by a job every replica runs and one at a time does.
 */
import type { FastifyInstance } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { withLiveChanges } from '../../http/money-moving.ts';
import type { LiveChanges } from '../../lib/live-changes.ts';
import { type PeriodicJob, startPeriodic, withJobLock } from '../../lib/periodic.ts';
import { type Entry, postEntries } from '../ledger/ledger.public.ts';
import { refundOpenOrders } from './orders.money.ts';
import { findDueOrders, markOrdersExpired, updateOrders } from './orders.queries.ts';
import { findPair, lockPairs } from './pairs.queries.ts';

/** How many due orders one tick of the job cancels at most; the next tick takes the rest. */
export const EXPIRY_BATCH = 500;

/** How often the expiry job looks for due orders: every second, so an order outlives its time by about that. */
const EXPIRY_EVERY_MS = 1000;

/**
 * Cancels the open orders due at `now` (at most `EXPIRY_BATCH`, soonest first) in the caller's
 * transaction: takes their pairs' locks, reads them again under the locks (an order filled or cancelled
 * meanwhile is left alone), returns each one's unfilled escrow to its owner (category 21, the owner as
 * executor) and marks it Cancelled. Returns how many it cancelled.
 */
export async function expireDueOrders(tx: Tx, changes: LiveChanges, now: Date): Promise<number> {
  const seen = await findDueOrders(tx, now, EXPIRY_BATCH);
  if (seen.length === 0) return 0;
  const pairIds = [...new Set(seen.map((o) => o.pairId))];
  await lockPairs(tx, pairIds);
  const due = await findDueOrders(
    tx,
    now,
    EXPIRY_BATCH,
    seen.map((o) => o.id),
  );
  const entries: Entry[] = [];
  const updates: Parameters<typeof updateOrders>[1][number][] = [];
  for (const pairId of new Set(due.map((o) => o.pairId))) {
    // Deleting a pair cancels its open orders under the same lock, so a due open order's pair is live.
    const pair = await findPair(tx, pairId);
    if (!pair) throw new Error(`open order on a deleted pair ${pairId}`);
    for (const o of due.filter((x) => x.pairId === pairId)) {
      const refund = refundOpenOrders(pair, [o], o.userId, 'Order expired: escrow returned');
      entries.push(...refund.entries);
      updates.push(...refund.updates);
      changes.touchUser(o.userId);
    }
    changes.touchPair(pairId);
  }
  await postEntries(tx, entries, changes);
  await updateOrders(tx, updates);
  await markOrdersExpired(
    tx,
    due.map((o) => o.id),
  );
  return due.length;
}

/** Starts the expiry job of `app` on `db`: every second, on one replica at a time (`withJobLock`). */
export function startOrderExpiry(app: FastifyInstance, db: Db, everyMs = EXPIRY_EVERY_MS): PeriodicJob {
  return startPeriodic({
    name: 'expire-orders',
    everyMs,
    log: app.log,
    tick: async () => {
      await withLiveChanges(app.live.changes, (changes) =>
        withJobLock(db, 'expire-orders', (tx) => expireDueOrders(tx, changes, new Date())),
      );
    },
  });
}
