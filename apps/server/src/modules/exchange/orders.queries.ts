/**
 * SQL of the exchange's orders (SPEC §3, DESIGN §5): a placement batch's context and writes, cancels, reads.
 * Reads other modules' tables: `currencies` (the precision of a pair's two currencies, joined in the
 * placement's context statement and a member's orders).
 */
import { type Amount, formatAmount, fromNumeric } from '@starlight/shared';
import { and, asc, eq, inArray, isNotNull, lte, type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryPlanned, type Tx } from '../../db/client.ts';
import { pgArray } from '../../db/pg-array.ts';
import { exchangeOrders } from '../../db/schema/index.ts';
import { BatchBalances, lockBalances } from '../ledger/ledger.public.ts';
import { type PairRow, type PairSqlRow, pairRows, toPairRow } from './pairs.queries.ts';

/** An order as the service sees it; amounts are Amounts. */
export interface OrderRow {
  id: string;
  seq: number;
  pairId: string;
  userId: string;
  buySide: boolean;
  initialAmount: Amount;
  filledAmount: Amount;
  price: Amount;
  state: number;
  escrowRemaining: Amount;
  /** DESIGN §11.4: `limit`, `market` or `stop_limit`. */
  type: string;
  /** DESIGN §11.4: `GTC`, `IOC` or `FOK`. */
  timeInForce: string;
  postOnly: boolean;
  stopPrice: Amount | null;
  expiresAt: Date | null;
  createdAt: Date;
  /** Cancelled by the expiry job at `expiresAt` (DESIGN §11.4); false for every other order. */
  expired: boolean;
}

/**
 * The states of an order that holds escrow, open or Untriggered (DESIGN §11.4), as literal SQL: the partial
 * index of expiring orders has the same predicate, which a bound parameter would not prove.
 */
const LIVE_STATES = sql`${exchangeOrders.state} IN (1, 5)`;

/** An `exchange_orders` row as Drizzle reads it, or by SQL text (its times as Dates or text). */
type OrderSqlRow = Omit<typeof exchangeOrders.$inferSelect, 'expiresAt' | 'createdAt' | 'updatedAt'> & {
  expiresAt: Date | string | null;
  createdAt: Date | string;
};

/** Maps an `exchange_orders` row to an `OrderRow` (amounts as Amounts). */
export function toOrderRow(r: OrderSqlRow): OrderRow {
  return {
    id: r.id,
    seq: Number(r.seq),
    pairId: r.pairId,
    userId: r.userId,
    buySide: r.buySide,
    initialAmount: fromNumeric(r.initialAmount),
    filledAmount: fromNumeric(r.filledAmount),
    price: fromNumeric(r.price),
    state: r.state,
    escrowRemaining: fromNumeric(r.escrowRemaining),
    type: r.type,
    timeInForce: r.timeInForce,
    postOnly: r.postOnly,
    stopPrice: r.stopPrice === null ? null : fromNumeric(r.stopPrice),
    expiresAt: r.expiresAt === null ? null : new Date(r.expiresAt),
    createdAt: new Date(r.createdAt),
    expired: r.expired,
  };
}

/** One order (any pair, any state), or null. */
export async function findOrder(db: DbOrTx, orderId: string): Promise<OrderRow | null> {
  const [row] = await db.select().from(exchangeOrders).where(eq(exchangeOrders.id, orderId)).limit(1);
  return row ? toOrderRow(row) : null;
}

/**
 * Open or Untriggered orders whose `expiresAt` is at or before `now`, soonest first, at most `limit` (DESIGN
 * §11.4), read through the partial index of expiring orders; `ids` narrows to those orders (a re-read under
 * locks).
 */
export async function findDueOrders(
  db: DbOrTx,
  now: Date,
  limit: number,
  ids?: readonly string[],
): Promise<OrderRow[]> {
  const rows = await db
    .select()
    .from(exchangeOrders)
    .where(
      and(
        LIVE_STATES,
        isNotNull(exchangeOrders.expiresAt),
        lte(exchangeOrders.expiresAt, now),
        ids === undefined ? undefined : inArray(exchangeOrders.id, [...ids]),
      ),
    )
    .orderBy(asc(exchangeOrders.expiresAt))
    .limit(limit);
  return rows.map(toOrderRow);
}

/** What matching reads of a resting order the batch can reach: its place on the book and what it has left. */
export type CrossingOrder = Pick<
  OrderRow,
  'id' | 'seq' | 'userId' | 'buySide' | 'initialAmount' | 'filledAmount' | 'price' | 'escrowRemaining'
>;

/** What placing a batch of orders reads of one pair under the pairs' locks (see `findOrderContexts`). */
export interface PairContext {
  pair: PairRow;
  /** The resting orders the batch can reach, both sides, each side in priority order. */
  crossing: CrossingOrder[];
  /**
   * The nearest waiting stops (DESIGN §11.4): the lowest stop price of the pair's Untriggered buys and the
   * highest of its Untriggered sells (null: none), so a batch knows whether its trades may trigger one.
   */
  stops: { lowestBuy: Amount | null; highestSell: Amount | null };
}

/** What placing a batch of orders reads under its pairs' locks (see `findOrderContexts`). */
export interface OrderContexts {
  /** Every balance row the batch can touch, locked. */
  balances: BatchBalances;
  /** The batch's live pairs, by id (a pair that does not exist or is deleted is missing). */
  pairs: Map<string, PairContext>;
}

/** How far a batch's orders of one side can reach into the other side of the book. */
export interface SideReach {
  /** The best limit among the side's orders: the highest buy price, or the lowest sell price. */
  limit: Amount;
  /** The side's total quantity: the batch cannot consume more than this of the other side. */
  quantity: Amount;
}

/** What a batch places on one pair: its members and how far its orders of each side reach. */
export interface PairReach {
  pairId: string;
  userIds: readonly string[];
  /** Null: no order of that side on this pair. */
  buys: SideReach | null;
  sells: SideReach | null;
}

/** A reach that selects nothing (no order of that side in the batch). */
const NO_REACH = { limit: '0', quantity: '0' };

/**
 * How many resting orders of one side a placement first reads on each pair, in priority order.
 * Only when those do not cover the batch's quantity does the statement read on past them: a window's
 * running sum cannot stop a scan, so reading the whole reachable side of a deep book every time was slow.
 */
export const CROSSING_FIRST_READ = 200;

/** The columns of a resting order that a placement reads, of the relation `o`. */
const ORDER_COLUMNS = sql.raw(
  'o.id, o.seq, o.pair_id, o.user_id, o.buy_side, o.initial_amount, o.filled_amount, o.price, o.escrow_remaining',
);

/**
 * The CTEs `<side>_first` and `<side>` (side: `sells`, the resting sells the batch's buys can reach, or
 * `buys`): on each pair of `reach`, the resting orders of that side within the batch's limit, in price-time
 * priority, only as many as cover the batch's quantity of the other side (`running`: the sum of what the
 * orders before and including this one can give, `tradable`). `<side>_first` reads the first
 * `CROSSING_FIRST_READ` of them with the index of the side's priority; `<side>` keeps those the quantity
 * reaches and, on a pair where all of them did not cover it, reads the orders after the last one read.
 * A side the batch has no order against (quantity 0) is not read at all.
 */
function crossingSide(buySide: boolean, tradable: SQL): SQL {
  const name = buySide ? 'buys' : 'sells';
  const [limitOk, order, quantity, after] = buySide
    ? [
        sql`o.price >= r.sell_limit`,
        sql`o.price DESC, o.seq ASC`,
        sql`r.sell_qty`,
        sql`o.price <= f.price AND (o.price < f.price OR o.seq > f.seq)`,
      ]
    : [
        sql`o.price <= r.buy_limit`,
        sql`o.price ASC, o.seq ASC`,
        sql`r.buy_qty`,
        sql`o.price >= f.price AND (o.price > f.price OR o.seq > f.seq)`,
      ];
  const onSide = sql`o.pair_id = r.pair_id AND o.state = 1 AND ${buySide ? sql`o.buy_side` : sql`NOT o.buy_side`}`;
  return sql`
    ${sql.raw(name)}_first AS MATERIALIZED (
      SELECT x.* FROM reach r CROSS JOIN LATERAL (
        SELECT o.*, sum(o.tradable) OVER w AS running, row_number() OVER w AS n
        FROM (SELECT o.*, ${tradable} AS tradable FROM exchange_orders o
              WHERE ${quantity} > 0 AND ${onSide} AND ${limitOk}
              ORDER BY ${order} LIMIT ${sql.raw(String(CROSSING_FIRST_READ))}) o
        WINDOW w AS (ORDER BY ${order})) x),
    ${sql.raw(name)} AS (
      SELECT ${ORDER_COLUMNS} FROM ${sql.raw(name)}_first o JOIN reach r ON r.pair_id = o.pair_id
      WHERE o.running - o.tradable < ${quantity}
      UNION ALL
      SELECT ${ORDER_COLUMNS} FROM ${sql.raw(name)}_first f JOIN reach r ON r.pair_id = f.pair_id
      CROSS JOIN LATERAL (
        SELECT o.*, f.running + sum(${tradable}) OVER (ORDER BY ${order}) AS more, ${tradable} AS tradable
        FROM exchange_orders o WHERE ${onSide} AND ${limitOk} AND ${after}) o
      WHERE f.n = ${sql.raw(String(CROSSING_FIRST_READ))} AND f.running < ${quantity}
        AND o.more - o.tradable < ${quantity})`;
}

/**
 * One statement, run right after the pairs' locks so it sees every order committed before (DESIGN §5):
 * the live pairs of `pairs`; on each, the resting orders the batch can trade with (for its buys, the
 * sells at or under `buys.limit` in price-time priority, only as many as cover `buys.quantity`; for its
 * sells, the buys at or over `sells.limit` likewise); the nearest Untriggered stops of each side (through
 * `exchange_orders_stops`); and every existing balance row the batch can touch,
 * locked in the global order by the ledger's `lockBalances`: on each pair, those of the pair's members,
 * of its reached orders' owners and of its fee collector, in the pair's two currencies.
 * Whatever sequence of these orders is matched, it only consumes a prefix of each side of the book in
 * priority order, trading never more than the other side's total quantity; the orders of the batch's own
 * members (`userIds`, of any pair) in that prefix may instead be cancelled by self-trade prevention, so
 * they are read but do not count against the quantity: so this is all it can reach.
 */
export async function findOrderContexts(
  tx: Tx,
  q: { userIds: readonly string[]; pairs: readonly PairReach[] },
): Promise<OrderContexts> {
  const reach = (r: SideReach | null) =>
    r ? { limit: formatAmount(r.limit), quantity: formatAmount(r.quantity) } : NO_REACH;
  const col = (f: (r: PairReach) => string) => pgArray(q.pairs.map(f));
  const members = q.pairs.flatMap((r) => r.userIds.map((u) => ({ pairId: r.pairId, userId: u })));
  // What a resting order can give the batch: nothing when a member of the batch owns it (self-trade
  // prevention cancels it instead of trading, so it does not use up the batch's quantity).
  const tradable = sql`CASE WHEN o.user_id = ANY(${pgArray(q.userIds)}::bpchar[]) THEN 0
                            ELSE o.initial_amount - o.filled_amount END`;
  type ContextRow = PairSqlRow & {
    crossing: Array<Record<string, string | number | boolean>> | null;
    lowest_buy_stop: string | null;
    highest_sell_stop: string | null;
  };
  const locked = await lockBalances<ContextRow>(tx, 'exchange_order_contexts', {
    ctes: sql`
    reach AS MATERIALIZED (
      SELECT * FROM unnest(${col((r) => r.pairId)}::bpchar[],
                           ${col((r) => reach(r.buys).limit)}::numeric[], ${col((r) => reach(r.buys).quantity)}::numeric[],
                           ${col((r) => reach(r.sells).limit)}::numeric[], ${col((r) => reach(r.sells).quantity)}::numeric[])
        AS r(pair_id, buy_limit, buy_qty, sell_limit, sell_qty)),
    p AS MATERIALIZED (${pairRows(sql`p.id IN (SELECT pair_id FROM reach)`)}),
    ${crossingSide(false, tradable)},
    ${crossingSide(true, tradable)},
    crossing AS MATERIALIZED (SELECT * FROM sells UNION ALL SELECT * FROM buys)`,
    userIds: [],
    moreBalances: [
      sql`SELECT x.u, c.c FROM (
              SELECT * FROM unnest(${pgArray(members.map((m) => m.pairId))}::bpchar[],
                                   ${pgArray(members.map((m) => m.userId))}::bpchar[]) AS j(pair_id, u)
              UNION ALL SELECT pair_id, user_id FROM crossing
              UNION ALL SELECT id, fee_collector_id FROM p) x
            JOIN p ON p.id = x.pair_id
            CROSS JOIN LATERAL (VALUES (p.buy_currency), (p.sell_currency)) c(c)`,
    ],
    columns: sql`p.*,
      (SELECT json_agg(json_build_object(
                'id', o.id, 'seq', o.seq::text, 'userId', o.user_id, 'buySide', o.buy_side,
                'initialAmount', o.initial_amount::text, 'filledAmount', o.filled_amount::text,
                'price', o.price::text, 'escrowRemaining', o.escrow_remaining::text)
              ORDER BY o.buy_side, CASE WHEN o.buy_side THEN -o.price ELSE o.price END, o.seq)
       FROM crossing o WHERE o.pair_id = p.id) AS crossing,
      (SELECT min(s.stop_price)::text FROM exchange_orders s
        WHERE s.pair_id = p.id AND s.buy_side AND s.state = 5) AS lowest_buy_stop,
      (SELECT max(s.stop_price)::text FROM exchange_orders s
        WHERE s.pair_id = p.id AND NOT s.buy_side AND s.state = 5) AS highest_sell_stop`,
    from: sql`FROM p`,
  });
  if (!locked) return { balances: new BatchBalances(), pairs: new Map() };
  const pairs = new Map<string, PairContext>();
  for (const row of locked.rows) {
    const pair = toPairRow(row);
    const crossing = (row.crossing ?? []).map((o) => ({
      id: String(o.id),
      seq: Number(o.seq),
      userId: String(o.userId),
      buySide: o.buySide === true,
      initialAmount: fromNumeric(String(o.initialAmount)),
      filledAmount: fromNumeric(String(o.filledAmount)),
      price: fromNumeric(String(o.price)),
      escrowRemaining: fromNumeric(String(o.escrowRemaining)),
    }));
    const stopAt = (v: string | null) => (v === null ? null : fromNumeric(v));
    const stops = { lowestBuy: stopAt(row.lowest_buy_stop), highestSell: stopAt(row.highest_sell_stop) };
    pairs.set(pair.id, { pair, crossing, stops });
  }
  return { balances: locked.balances, pairs };
}

/**
 * Sets filled amount, escrow and state of several orders in one statement. Ids travel as `bpchar[]`, the
 * type of `exchange_orders.id`, so the join uses the primary key (as `text[]` it scanned every order).
 */
export async function updateOrders(
  db: DbOrTx,
  updates: ReadonlyArray<{ id: string; filledAmount: Amount; escrowRemaining: Amount; state: number }>,
): Promise<void> {
  if (updates.length === 0) return;
  await db.execute(sql`
    UPDATE exchange_orders o
    SET filled_amount = v.filled, escrow_remaining = v.escrow, state = v.state, updated_at = now()
    FROM unnest(
      ${pgArray(updates.map((u) => u.id))}::bpchar[],
      ${pgArray(updates.map((u) => formatAmount(u.filledAmount)))}::numeric[],
      ${pgArray(updates.map((u) => formatAmount(u.escrowRemaining)))}::numeric[],
      ${pgArray(updates.map((u) => u.state))}::int[]
    ) AS v(id, filled, escrow, state)
    WHERE o.id = v.id`);
}

/** Marks orders the expiry job cancelled as expired (DESIGN §11.4), in its transaction. */
export async function markOrdersExpired(tx: Tx, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.execute(sql`UPDATE exchange_orders SET expired = true WHERE id = ANY(${pgArray([...ids])}::bpchar[])`);
}

/** Every open or Untriggered order of a pair (both sides), oldest first: what deleting a pair must cancel. */
export async function findOpenOrdersOfPair(db: DbOrTx, pairId: string): Promise<OrderRow[]> {
  const rows = await db
    .select()
    .from(exchangeOrders)
    .where(and(eq(exchangeOrders.pairId, pairId), LIVE_STATES))
    .orderBy(exchangeOrders.seq);
  return rows.map(toOrderRow);
}

/**
 * A member's open and Untriggered orders (both sides), oldest first, on the pairs `pairIds` or, when null, on
 * any pair: what cancelling all of them must cancel (DESIGN §11.4). Reads `exchange_orders_user_state`.
 */
export async function findOpenOrdersOfUser(
  db: DbOrTx,
  userId: string,
  pairIds: readonly string[] | null,
): Promise<OrderRow[]> {
  const onPairs = pairIds === null ? undefined : inArray(exchangeOrders.pairId, [...pairIds]);
  const rows = await db
    .select()
    .from(exchangeOrders)
    .where(and(eq(exchangeOrders.userId, userId), LIVE_STATES, onPairs))
    .orderBy(exchangeOrders.seq);
  return rows.map(toOrderRow);
}

/** Which of a member's orders `findUserOrders` reads: of one pair and one state when given; a page of them. */
export interface UserOrdersFilter {
  pairId?: string | undefined;
  state?: number | undefined;
  limit: number;
  offset?: number;
}

/** The `exchange_orders` rows (alias `o`) a member's orders filter selects, as SQL for FROM. */
export function userOrdersFrom(userId: string, f: Omit<UserOrdersFilter, 'limit' | 'offset'>): SQL {
  const pair = f.pairId === undefined ? sql`` : sql` AND o.pair_id = ${f.pairId}`;
  const state = f.state === undefined ? sql`` : sql` AND o.state = ${f.state}`;
  return sql`exchange_orders o WHERE o.user_id = ${userId}${pair}${state}`;
}

/** An `exchange_orders` row (alias `o`) read by SQL text, its columns named as `exchangeOrders`' fields. */
const ORDER_FIELDS = sql`o.id, o.seq, o.pair_id AS "pairId", o.user_id AS "userId", o.buy_side AS "buySide",
  o.initial_amount AS "initialAmount", o.filled_amount AS "filledAmount", o.price, o.state,
  o.escrow_remaining AS "escrowRemaining", o.type, o.time_in_force AS "timeInForce", o.post_only AS "postOnly",
  o.stop_price AS "stopPrice", o.expires_at AS "expiresAt", o.expired, o.created_at AS "createdAt"`;

/**
 * A member's orders, newest first (`seq` descending), filtered by `f`, each with its pair's precisions.
 * Served by `exchange_orders_user` (member), `exchange_orders_user_state` (member and state) or
 * `exchange_orders_user_pair_state` (member, pair and state), newest first, so a page reads its rows only;
 * one named statement per filter's shape (`queryPlanned`), where planning its joins on every page view cost
 * more than reading the page.
 */
export async function findUserOrders(
  db: DbOrTx,
  userId: string,
  f: UserOrdersFilter,
): Promise<Array<OrderRow & { buyPrecision: number; sellPrecision: number }>> {
  const rows = await queryPlanned<OrderSqlRow & { buyPrecision: number; sellPrecision: number }>(
    db,
    sql`SELECT ${ORDER_FIELDS}, b.precision AS "buyPrecision", s.precision AS "sellPrecision"
        FROM (SELECT o.* FROM ${userOrdersFrom(userId, f)} ORDER BY o.seq DESC LIMIT ${f.limit} OFFSET ${f.offset ?? 0}) o
        JOIN exchange_pairs p ON p.id = o.pair_id
        JOIN currencies b ON b.currency_id = p.buy_currency
        JOIN currencies s ON s.currency_id = p.sell_currency
        ORDER BY o.seq DESC`,
  );
  return rows.map((r) => ({
    ...toOrderRow(r),
    buyPrecision: Number(r.buyPrecision),
    sellPrecision: Number(r.sellPrecision),
  }));
}
