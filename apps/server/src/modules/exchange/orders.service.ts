/**
 * The exchange's orders (SPEC §4, §7 Exchange, §8; DESIGN §5): placing a batch (validate, escrow and
 * match, persist), cancels and payouts. Every movement of money goes through the ledger in the caller's
 * transaction, and every change to a pair's orders runs under the pair's advisory lock.
 * `escrowRemaining` on an order always equals what the ledger holds in escrow for it.
 */
import {
  ADMIN_CATEGORY,
  type Amount,
  AppError,
  type CancelAllOrdersResponse,
  MAX_AMOUNT,
  ORDER_STATE,
  type OrderResponse,
  type PlaceOrderResponse,
  sumAmounts,
  TX_CATEGORY,
} from '@starlight/shared';
import type { Tx } from '../../db/client.ts';
import { holdCommit } from '../../db/transaction.ts';
import type { AuthUser } from '../../http/access.ts';
import { type Outcome, onlyOutcome } from '../../lib/group-commit.ts';
import type { LiveChanges } from '../../lib/live-changes.ts';
import { type Entry, postEntries } from '../ledger/ledger.public.ts';
import { insertAdminLog } from '../oversight/oversight.public.ts';
import { pairAmountText, pairName, toOrderDto } from './exchange.dto.ts';
import { OrderBatch } from './orders.escrow.ts';
import { refundOpenOrders } from './orders.money.ts';
import { persistOrderBatches } from './orders.persist.ts';
import {
  findOpenOrdersOfUser,
  findOrder,
  findOrderContexts,
  type OrderRow,
  type PairReach,
  type SideReach,
  updateOrders,
} from './orders.queries.ts';
import { triggerStops } from './orders.stops.ts';
import { type OrderInput, validateOrder } from './orders.validate.ts';
import { findPair, lockPair, lockPairs, lockPairsText, type PairRow } from './pairs.queries.ts';

/** One order to place: who places it and what (SPEC §7 placeOrder). */
export interface OrderJob {
  member: AuthUser;
  input: OrderInput;
}

/** How far the batch's orders of one side reach into the other side of the book (null: none of that side). */
function reachOf(jobs: readonly OrderJob[], buySide: boolean): SideReach | null {
  // A stop-limit order does not match when placed (it waits for its trigger, `triggerStops`).
  const side = jobs.filter((j) => j.input.buySide === buySide && j.input.type !== 'stop_limit').map((j) => j.input);
  if (side.length === 0) return null;
  // Ascending prices: a buy reaches furthest at the highest, a sell at the lowest; a market order (no
  // price) reaches every price.
  const prices = side
    .map((o) => o.price ?? (buySide ? MAX_AMOUNT : (0n as Amount)))
    .sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  const best = (buySide ? prices[prices.length - 1] : prices[0]) as Amount;
  return { limit: best, quantity: sumAmounts(side.map((o) => o.initialAmount)) };
}

/** What the batch places on each of its pairs: the pair's members and reach (`findOrderContexts`). */
function reachesOf(jobs: readonly OrderJob[]): PairReach[] {
  const byPair = new Map<string, OrderJob[]>();
  for (const j of jobs) {
    const onPair = byPair.get(j.input.pair);
    if (onPair) onPair.push(j);
    else byPair.set(j.input.pair, [j]);
  }
  return [...byPair].map(([pairId, onPair]) => ({
    pairId,
    userIds: [...new Set(onPair.map((j) => j.member.id))],
    buys: reachOf(onPair, true),
    sells: reachOf(onPair, false),
  }));
}

/**
 * The statement that takes the locks of every pair `jobs` name (`lockPairsText`), for the first round trip
 * of their batch's transaction; `placeOrders` with `pairsLocked` then does not take them again.
 */
export function pairLocksOf(jobs: readonly OrderJob[]): string {
  return lockPairsText([...new Set(jobs.map((j) => j.input.pair))]);
}

/**
 * Places a batch of orders, on one pair or several, in the caller's transaction `tx`, as if they came one
 * after the other in the given order (SPEC §7 placeOrder, DESIGN §5): takes the pairs' locks, reads the
 * pairs, the resting orders the batch can reach and the balance rows it can touch (locked), then for each
 * order in turn checks it, escrows its funds (category 20; a buy escrows initialAmount x price rounded up
 * to sellCurrency's precision, a sell its initialAmount) and matches it by price-time priority at the
 * resting orders' prices; each fill posts the quantity and the cost out of the two escrows (22), the
 * buyer's price improvement back to the buyer (22), each side's fee on its proceeds to the collector or
 * burned (23). A resting order of the same member that an order reaches is cancelled instead of traded
 * (self-trade prevention, cancel oldest: its escrow back, 21; `matchOrder`), and the answer's note says so.
 * Everything is written in one statement (DESIGN §9: a batch costs the round trips of one order).
 * `pairsLocked`: the transaction took the pairs' locks already, in its first round trip (`pairLocksOf`).
 * An order that is refused leaves no trace and does not stop the others; its outcome carries the
 * error: NOT_FOUND (pair, or hidden to a member), CONFLICT (frozen pair: its `frozenNote`; disabled side;
 * frozen currency; `Insufficient funds`), VALIDATION (amount or price beyond the currencies' precision,
 * an order worth less than one unit of sellCurrency's precision). An accepted order answers
 * `{order, trades, tx:{note}, message}` with SPEC §8's message (`Placed a buy order of …` /
 * `Placed a Sell Order of …`, then `; … filled at once` and `; your resting buy order at … was cancelled to
 * prevent a self-trade` when they apply), its state as its own matching left it. A stop-limit order waits
 * in state Untriggered, its escrow taken; once the batch is written, the stops its trades trigger are
 * placed and matched in the same transaction (`triggerStops`, DESIGN §11.4). Throws (rolling back
 * the whole batch) only on a database failure.
 */
export async function placeOrders(
  tx: Tx,
  jobs: readonly OrderJob[],
  changes: LiveChanges,
  opts: { pairsLocked?: boolean } = {},
): Promise<Outcome<PlaceOrderResponse>[]> {
  const reaches = reachesOf(jobs);
  if (!opts.pairsLocked) {
    await lockPairs(
      tx,
      reaches.map((r) => r.pairId),
    );
  }
  const context = await findOrderContexts(tx, { userIds: [...new Set(jobs.map((j) => j.member.id))], pairs: reaches });
  const batches = new Map<string, OrderBatch>();
  for (const [pairId, pairContext] of context.pairs)
    batches.set(pairId, new OrderBatch(pairContext, context.balances, changes));
  const outcomes: Array<Outcome<PlaceOrderResponse> | null> = jobs.map(() => null);
  for (const [index, { member, input }] of jobs.entries()) {
    const batch = batches.get(input.pair);
    try {
      if (!batch) throw new AppError('NOT_FOUND', 'Pair not found');
      validateOrder(batch.pair, member, input);
      batch.escrowAndMatch(index, member.id, input);
    } catch (error) {
      outcomes[index] = { ok: false, error };
    }
  }
  const placing = [...batches.values()].filter((b) => b.answers.length > 0);
  if (placing.length > 0) {
    // Stops to trigger: the writes go on after the posting, so its COMMIT must not go behind it.
    const triggers = placing.some((b) => b.mayTrigger());
    if (triggers) holdCommit(tx);
    for (const { index, response } of await persistOrderBatches(tx, placing, changes))
      outcomes[index] = { ok: true, value: response };
    for (const b of placing) changes.touchPair(b.pair.id);
    if (triggers) await triggerStops(tx, placing, changes);
  }
  return outcomes.map((o) => o ?? { ok: false, error: new Error('order left without an outcome') });
}

/**
 * A member places one order (SPEC §7 placeOrder): `placeOrders` with a batch of one, in the caller's
 * transaction. Answers `{order, trades, tx:{note}, message}`; throws the order's error (see `placeOrders`).
 */
export async function placeOrder(
  tx: Tx,
  member: AuthUser,
  input: OrderInput,
  changes: LiveChanges,
): Promise<PlaceOrderResponse> {
  return onlyOutcome(placeOrders(tx, [{ member, input }], changes));
}

/**
 * Finds an order the caller may act on (its owner, or any admin), locks its pair and reads it again; it
 * must be open or Untriggered (a waiting stop-limit order, DESIGN §11.4).
 */
async function lockOwnOrder(tx: Tx, caller: AuthUser, orderId: string, adminOnly: boolean): Promise<OrderRow> {
  const first = await findOrder(tx, orderId);
  const mayAct = first && (caller.role === 'admin' || (!adminOnly && first.userId === caller.id));
  if (!first || !mayAct) throw new AppError('NOT_FOUND', 'Order not found');
  await lockPair(tx, first.pairId);
  const order = await findOrder(tx, orderId);
  if (!order) throw new AppError('NOT_FOUND', 'Order not found');
  if (order.state !== ORDER_STATE.Placed && order.state !== ORDER_STATE.Untriggered)
    throw new AppError('CONFLICT', 'Order is not open');
  return order;
}

async function requireOrderPair(tx: Tx, order: OrderRow): Promise<PairRow> {
  // Deleting a pair cancels its open orders under the same lock, so an open order's pair is live.
  const pair = await findPair(tx, order.pairId);
  if (!pair) throw new Error(`open order ${order.id} on a deleted pair`);
  return pair;
}

/**
 * Cancels an open or Untriggered order (SPEC §7 cancelOrder, DESIGN §11.4): its owner or an admin; another member's order answers
 * NOT_FOUND. Returns the unfilled escrow to the owner (category 21) under the pair's lock, so concurrent
 * cancels refund once. Answers `{order, message}`: `Sell order cancelled` / `Buy order cancelled` (SPEC §8).
 * Throws NOT_FOUND, CONFLICT `Order is not open`.
 */
export async function cancelOrder(
  tx: Tx,
  caller: AuthUser,
  orderId: string,
  changes: LiveChanges,
): Promise<OrderResponse> {
  const order = await lockOwnOrder(tx, caller, orderId, false);
  const pair = await requireOrderPair(tx, order);
  const { entries, updates } = refundOpenOrders(pair, [order], caller.id, 'Order cancelled: escrow returned');
  await postEntries(tx, entries, changes);
  await updateOrders(tx, updates);
  changes.touchPair(pair.id);
  changes.touchUser(order.userId);
  return {
    order: toOrderDto({ ...order, state: ORDER_STATE.Cancelled, escrowRemaining: 0n as Amount }, pair),
    message: order.buySide ? 'Buy order cancelled' : 'Sell order cancelled',
  };
}

/**
 * A member cancels all their open and Untriggered orders, or those of one pair (DESIGN §11.4 cancelAllOrders), in the
 * caller's transaction: takes the locks of the pairs they rest on, reads them again under the locks and
 * returns each one's unfilled escrow (category 21) as `cancelOrder` does, so a retry or a concurrent call
 * cancels nothing twice. Only the caller's own orders, admins included. Answers `{cancelled, message}`:
 * `3 open orders cancelled`, `1 open order cancelled`, or `No open orders to cancel` (cancelled 0).
 * Throws NOT_FOUND `Pair not found` for a `pairId` that names no live pair.
 */
export async function cancelAllOrders(
  tx: Tx,
  member: AuthUser,
  pairId: string | undefined,
  changes: LiveChanges,
): Promise<CancelAllOrdersResponse> {
  if (pairId !== undefined && !(await findPair(tx, pairId))) throw new AppError('NOT_FOUND', 'Pair not found');
  const seen = await findOpenOrdersOfUser(tx, member.id, pairId === undefined ? null : [pairId]);
  const pairIds = [...new Set(seen.map((o) => o.pairId))];
  if (pairIds.length === 0) return { cancelled: 0, message: 'No open orders to cancel' };
  await lockPairs(tx, pairIds);
  // Under the locks: what another cancel or a fill left open (a pair deleted meanwhile cancelled its own).
  const open = await findOpenOrdersOfUser(tx, member.id, pairIds);
  if (open.length === 0) return { cancelled: 0, message: 'No open orders to cancel' };
  const entries: Entry[] = [];
  const updates: Parameters<typeof updateOrders>[1][number][] = [];
  for (const id of new Set(open.map((o) => o.pairId))) {
    const onPair = open.filter((o) => o.pairId === id);
    const pair = await requireOrderPair(tx, onPair[0] as OrderRow);
    const refund = refundOpenOrders(pair, onPair, member.id, 'Order cancelled: escrow returned');
    entries.push(...refund.entries);
    updates.push(...refund.updates);
    changes.touchPair(pair.id);
  }
  await postEntries(tx, entries, changes);
  await updateOrders(tx, updates);
  changes.touchUser(member.id);
  const n = open.length;
  return { cancelled: n, message: `${n} open order${n === 1 ? '' : 's'} cancelled` };
}

/**
 * Admin: pays out the rest of a sell order that was settled outside the platform (SPEC §7 payoutOrder,
 * DESIGN §5): the escrowed remainder leaves escrow to the seller (category 22) and is burned from them
 * (category 11), the order becomes Filled, and an admin log row (Manual Burn) records it.
 * Answers `{order, message: 'Sell order paid out'}`. Throws NOT_FOUND, CONFLICT (a buy order, not open).
 */
export async function payoutOrder(
  tx: Tx,
  admin: AuthUser,
  orderId: string,
  address: string,
  changes: LiveChanges,
): Promise<OrderResponse> {
  const order = await lockOwnOrder(tx, admin, orderId, true);
  if (order.buySide) throw new AppError('CONFLICT', 'Only sell orders can be paid out');
  if (order.state === ORDER_STATE.Untriggered)
    throw new AppError('CONFLICT', 'A stop-limit order waiting for its trigger cannot be paid out');
  const pair = await requireOrderPair(tx, order);
  const rest = order.escrowRemaining;
  const text = pairAmountText(pair).buy(rest);
  if (rest > 0n) {
    const common = { currencyId: pair.buyCurrency, amount: rest, executorId: admin.id, reference: order.id };
    await postEntries(
      tx,
      [
        {
          ...common,
          category: TX_CATEGORY.CexTradeExecuted,
          senderId: null,
          recipientId: order.userId,
          escrow: true,
          note: 'Sell order paid out: settled outside the platform',
        },
        {
          ...common,
          category: TX_CATEGORY.Burn,
          senderId: order.userId,
          recipientId: null,
          note: 'Sell order paid out: escrow burned',
        },
      ],
      changes,
    );
  }
  await updateOrders(tx, [
    { id: order.id, filledAmount: order.initialAmount, escrowRemaining: 0n as Amount, state: ORDER_STATE.Filled },
  ]);
  await insertAdminLog(tx, {
    adminId: admin.id,
    affectedUserId: order.userId,
    address,
    category: ADMIN_CATEGORY.ManualBurn,
    action: `Paid out sell order ${order.id} on ${pairName(pair.buyName, pair.sellName)}: burned ${text} from escrow`,
  });
  changes.touchPair(pair.id);
  changes.touchUser(order.userId);
  return {
    order: toOrderDto(
      { ...order, filledAmount: order.initialAmount, escrowRemaining: 0n as Amount, state: ORDER_STATE.Filled },
      pair,
    ),
    message: 'Sell order paid out',
  };
}
