/**
 * SQL of placing a batch of orders (DESIGN §5): the exchange's writes (new orders, resting orders' fills,
 * trades) that ride along the ledger's posting of the batch's money in one statement, and its answer.
 */
import { type Amount, formatAmount } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { pgArray } from '../../db/pg-array.ts';
import type { PostAlong } from '../ledger/ledger.public.ts';
import type { OrderRow } from './orders.queries.ts';

/** A new order as its batch leaves it (already matched); its pair, `seq` and time come from the insert. */
export type NewOrder = Omit<OrderRow, 'pairId' | 'seq' | 'createdAt'>;

/** What placing a batch of orders writes besides the money (see `placedOrderWrites`). */
export interface PlacedOrderWrites {
  /** The new orders in arrival order (their `seq`, time priority, follows it), each with its pair. */
  orders: ReadonlyArray<NewOrder & { pairId: string }>;
  /** Resting orders whose fill, escrow or state changed. */
  makers: ReadonlyArray<{ id: string; filledAmount: Amount; escrowRemaining: Amount; state: number }>;
  /** The trades in execution order (their `seq` follows it), each with its pair. */
  trades: ReadonlyArray<NewTrade & { id: string; pairId: string; takerBuySide: boolean }>;
}

/**
 * The exchange's part of placing a batch of orders, as the `along` part of `postEntries` (the ledger posts the
 * money in the same statement): the new orders (their `seq` assigned under the pair's lock), the resting
 * orders' new fills and escrow, and the trades. `parsePlacedOrders` reads the statement's row.
 * The resting orders' ids travel as `bpchar[]` (see `updateOrders`): as `text[]` the update cast `id` and
 * scanned all of exchange_orders on every batch. `notified`: the trades' notifications
 * (`insertNotificationsAlong`), written by the same statement.
 */
export function placedOrderWrites(w: PlacedOrderWrites, notified: { ctes: SQL; columns: SQL }): PostAlong {
  const od = (f: (o: PlacedOrderWrites['orders'][number]) => string | number | boolean) => pgArray(w.orders.map(f));
  const odNull = (f: (o: PlacedOrderWrites['orders'][number]) => string | null) => pgArray(w.orders.map(f));
  const mk = (f: (m: PlacedOrderWrites['makers'][number]) => string | number) => pgArray(w.makers.map(f));
  const tr = (f: (t: PlacedOrderWrites['trades'][number]) => string | boolean) => pgArray(w.trades.map(f));
  return {
    name: 'exchange_place_orders',
    ctes: sql`
    placed AS (
      INSERT INTO exchange_orders
        (id, pair_id, user_id, buy_side, initial_amount, filled_amount, price, state, escrow_remaining,
         type, time_in_force, post_only, stop_price, expires_at)
      SELECT id, pair_id, user_id, buy_side, initial_amount, filled_amount, price, state, escrow_remaining,
             type, time_in_force, post_only, stop_price, expires_at
      FROM unnest(
        ${od((o) => o.id)}::text[],
        ${od((o) => o.pairId)}::text[],
        ${od((o) => o.userId)}::text[],
        ${od((o) => o.buySide)}::bool[],
        ${od((o) => formatAmount(o.initialAmount))}::numeric[],
        ${od((o) => formatAmount(o.filledAmount))}::numeric[],
        ${od((o) => formatAmount(o.price))}::numeric[],
        ${od((o) => o.state)}::int[],
        ${od((o) => formatAmount(o.escrowRemaining))}::numeric[],
        ${od((o) => o.type)}::text[],
        ${od((o) => o.timeInForce)}::text[],
        ${od((o) => o.postOnly)}::bool[],
        ${odNull((o) => (o.stopPrice === null ? null : formatAmount(o.stopPrice)))}::numeric[],
        ${odNull((o) => o.expiresAt?.toISOString() ?? null)}::timestamptz[]
      ) WITH ORDINALITY
        AS v(id, pair_id, user_id, buy_side, initial_amount, filled_amount, price, state, escrow_remaining,
             type, time_in_force, post_only, stop_price, expires_at, n)
      ORDER BY n
      RETURNING id, seq, created_at),
    makers AS (
      UPDATE exchange_orders m
      SET filled_amount = v.filled, escrow_remaining = v.escrow, state = v.state, updated_at = now()
      FROM unnest(${mk((m) => m.id)}::bpchar[], ${mk((m) => formatAmount(m.filledAmount))}::numeric[],
                  ${mk((m) => formatAmount(m.escrowRemaining))}::numeric[], ${mk((m) => m.state)}::int[])
           AS v(id, filled, escrow, state)
      WHERE m.id = v.id AND m.state = 1
      RETURNING 1),
    trades AS (
      INSERT INTO exchange_trades
        (id, pair_id, buy_order_id, sell_order_id, taker_buy_side, price, amount, cost, buyer_fee, seller_fee)
      SELECT id, pair_id, buy_order_id, sell_order_id, taker_buy_side, price, amount, cost, buyer_fee, seller_fee
      FROM unnest(
        ${tr((t) => t.id)}::text[],
        ${tr((t) => t.pairId)}::text[],
        ${tr((t) => t.buyOrderId)}::text[],
        ${tr((t) => t.sellOrderId)}::text[],
        ${tr((t) => t.takerBuySide)}::bool[],
        ${tr((t) => formatAmount(t.price))}::numeric[],
        ${tr((t) => formatAmount(t.amount))}::numeric[],
        ${tr((t) => formatAmount(t.cost))}::numeric[],
        ${tr((t) => formatAmount(t.buyerFee))}::numeric[],
        ${tr((t) => formatAmount(t.sellerFee))}::numeric[]
      ) WITH ORDINALITY AS v(id, pair_id, buy_order_id, sell_order_id, taker_buy_side, price, amount, cost,
                             buyer_fee, seller_fee, n)
      ORDER BY n
      RETURNING id, seq, created_at), ${notified.ctes}`,
    columns: sql`${notified.columns},
      (SELECT json_agg(json_build_object('id', id, 'seq', seq::text, 'createdAt', created_at)) FROM placed) AS placed,
      statement_refuse_unless((SELECT count(*) FROM makers) = ${w.makers.length}::int, 'internal_error', '',
                              'a resting order changed under the pair lock') AS makers_updated,
      (SELECT json_agg(json_build_object('id', id, 'seq', seq::text, 'createdAt', created_at)) FROM trades) AS trades`,
  };
}

/** The row `postEntries` returns for `placedOrderWrites`. */
export type PlacedOrderResult = {
  notified: number;
  placed: Array<{ id: string; seq: string; createdAt: string }> | null;
  makers_updated: boolean;
  trades: Array<{ id: string; seq: string; createdAt: string }> | null;
};

/**
 * `seq` and creation time of each new order and each trade, by id. (A resting order that was not open
 * any more, impossible under the pair's lock, failed the statement: `makers_updated`.)
 */
export function parsePlacedOrders(r: PlacedOrderResult): Map<string, { seq: number; createdAt: Date }> {
  const rows = [...(r.placed ?? []), ...(r.trades ?? [])];
  return new Map(rows.map((x) => [String(x.id), { seq: Number(x.seq), createdAt: new Date(String(x.createdAt)) }]));
}

/** A trade to record. */
export interface NewTrade {
  buyOrderId: string;
  sellOrderId: string;
  price: Amount;
  amount: Amount;
  cost: Amount;
  buyerFee: Amount;
  sellerFee: Amount;
}
