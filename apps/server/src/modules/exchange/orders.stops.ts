/**
 * Stop-limit orders' triggers (DESIGN §11.4): after a placement batch is written, in its transaction and
 * under its pairs' locks, the Untriggered stops its trades reach are placed as limit orders, oldest first
 * (`triggeredStops`), each matched as a new limit order would be; their own trades may trigger more
 * stops, round after round, until a round triggers none. So a stop triggers on a trade of the very batch
 * it was placed in (only one printed after it), and every stop a batch triggers has matched when the
 * batch commits: the outcome depends only on the orders and their order, never on timing.
 */
import { type Amount, sumAmounts } from '@starlight/shared';
import type { Tx } from '../../db/client.ts';
import type { LiveChanges } from '../../lib/live-changes.ts';
import { postEntries } from '../ledger/ledger.public.ts';
import { insertNotificationsAlong } from '../notifications/notifications.public.ts';
import { type Print, triggeredStops } from './matching.stops.ts';
import { OrderBatch } from './orders.escrow.ts';
import { findOrderContexts, type OrderRow, type PairReach, type SideReach } from './orders.queries.ts';
import { type PlacedOrderResult, placedOrderWrites } from './placement.queries.ts';
import { findReachedStops, markTriggered, type PrintRange } from './stops.queries.ts';

/** One pair's trades of a round, and the place in the round of each stop placed in it (by id). */
interface RoundPrints {
  pairId: string;
  prints: Print[];
  placedAt: Map<string, number>;
}

/** The highest and lowest price of a pair's prints; null when it has none. */
function rangeOf(r: RoundPrints): PrintRange | null {
  const first = r.prints[0];
  if (!first) return null;
  let high = first.price;
  let low = first.price;
  for (const p of r.prints) {
    if (p.price > high) high = p.price;
    if (p.price < low) low = p.price;
  }
  return { pairId: r.pairId, high, low };
}

/** How far the stops of one side reach into the other side of the book (null: none of that side). */
function stopsReach(stops: readonly OrderRow[], buySide: boolean): SideReach | null {
  const side = stops.filter((s) => s.buySide === buySide);
  if (side.length === 0) return null;
  let limit = (side[0] as OrderRow).price;
  for (const s of side) if (buySide ? s.price > limit : s.price < limit) limit = s.price;
  return { limit, quantity: sumAmounts(side.map((s) => (s.initialAmount - s.filledAmount) as Amount)) };
}

/**
 * Places the triggered `stops` (oldest first) on their pairs: reads the books they reach and the balance
 * rows they touch (locked), matches each in turn (`OrderBatch.trigger`), and writes the money, the
 * resting orders' fills and the trades in one statement, then each stop's new state and time priority.
 * Returns the round's batches, whose trades may trigger more.
 */
async function placeTriggered(tx: Tx, stops: readonly OrderRow[], changes: LiveChanges): Promise<OrderBatch[]> {
  const pairIds = [...new Set(stops.map((s) => s.pairId))];
  const reaches: PairReach[] = pairIds.map((pairId) => {
    const onPair = stops.filter((s) => s.pairId === pairId);
    return {
      pairId,
      userIds: [...new Set(onPair.map((s) => s.userId))],
      buys: stopsReach(onPair, true),
      sells: stopsReach(onPair, false),
    };
  });
  const context = await findOrderContexts(tx, { userIds: [...new Set(stops.map((s) => s.userId))], pairs: reaches });
  const batches: OrderBatch[] = [];
  for (const pairId of pairIds) {
    const pairContext = context.pairs.get(pairId);
    // Deleting a pair cancels its stops under the same lock: a stop's pair is live.
    if (!pairContext) throw new Error(`stop-limit order on a deleted pair ${pairId}`);
    const batch = new OrderBatch(pairContext, context.balances, changes);
    for (const [index, stop] of stops.filter((s) => s.pairId === pairId).entries()) batch.trigger(index, stop);
    batches.push(batch);
  }
  const parts = batches.map((b) => b.writes());
  const notified = insertNotificationsAlong(batches.flatMap((b) => b.notices()));
  const writes = { orders: [], makers: parts.flatMap((w) => w.makers), trades: parts.flatMap((w) => w.trades) };
  const entries = batches.flatMap((b) => b.entries);
  await postEntries<PlacedOrderResult>(tx, entries, changes, placedOrderWrites(writes, notified));
  changes.touchNotifications(notified.ids);
  for (const o of batches.flatMap((b) => b.triggeredOrders())) await markTriggered(tx, o);
  for (const pairId of pairIds) changes.touchPair(pairId);
  return batches;
}

/**
 * Triggers the stop-limit orders the trades of the written placement `batches` reach (DESIGN §11.4), in
 * the caller's transaction, under the batches' pairs' locks: a buy stop on a trade at or above its stop
 * price, a sell stop at or below, a stop placed in the batch only on a trade printed after it; then the
 * stops their trades trigger, until none. Returns how many stops it triggered. Throws only on a database
 * failure (the caller's transaction rolls back).
 */
export async function triggerStops(tx: Tx, batches: readonly OrderBatch[], changes: LiveChanges): Promise<number> {
  let round: RoundPrints[] = batches.map((b) => ({ pairId: b.pair.id, prints: b.prints(), placedAt: b.stopsPlaced() }));
  let triggered = 0;
  for (;;) {
    const ranges = round.map(rangeOf).filter((r) => r !== null);
    const reached = await findReachedStops(tx, ranges);
    const stops = round.flatMap((r) =>
      triggeredStops(
        reached.filter((s) => s.pairId === r.pairId),
        r.prints,
        (s) => r.placedAt.get(s.id) ?? -1,
      ),
    );
    if (stops.length === 0) return triggered;
    triggered += stops.length;
    const placed = await placeTriggered(tx, stops, changes);
    round = placed.map((b) => ({ pairId: b.pair.id, prints: b.prints(), placedAt: new Map() }));
  }
}
