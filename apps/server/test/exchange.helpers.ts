/**
 * Exchange test helpers: fresh currencies per test (pairs are unique per currency couple, and test files
 * share one database), pairs, funded members and order calls.
 */
import { randomBytes } from 'node:crypto';
import { type Amount, fromNumeric, type Order, type Pair, type PlaceOrderResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { BuiltApp } from '../src/app.ts';
import { buyEscrowFor } from '../src/modules/exchange/matching.engine.ts';
import { call, type Member, mint, registerMember, type TestApp } from './helpers.ts';

export interface TestCurrency {
  currencyId: number;
  ticker: string;
  name: string;
  precision: number;
}

/**
 * Creates a mintable currency with a unique ticker. createCurrency assigns max(id) + 1, so two test files
 * creating currencies at the same moment can collide on the id (a 500 from the bank module today): retry.
 */
export async function createCurrency(app: FastifyInstance, admin: Member, precision = 2): Promise<TestCurrency> {
  for (let attempt = 1; ; attempt++) {
    const ticker = `X${randomBytes(3).toString('hex').toUpperCase()}`;
    const name = `Coin ${ticker}`;
    const res = await call(app, admin.token, 'POST', '/api/bank/createCurrency', {
      ticker,
      name,
      precision,
      canDeposit: false,
      canWithdraw: false,
      canTransfer: true,
      canMint: true,
      canBurn: true,
    });
    if (res.statusCode !== 200 && attempt < 5) continue;
    expect(res.statusCode, res.body).toBe(200);
    const { currencyId } = res.json<{ currency: { currencyId: number } }>().currency;
    return { currencyId, ticker, name, precision };
  }
}

export interface Market {
  pair: Pair;
  /** The asset (buyCurrency). */
  base: TestCurrency;
  /** What it is paid in (sellCurrency). */
  quote: TestCurrency;
}

/** Creates two fresh currencies and a pair between them; `extra` adds createPair fields. */
export async function createMarket(
  app: FastifyInstance,
  admin: Member,
  extra: Record<string, unknown> = {},
  precisions: { base?: number; quote?: number } = {},
): Promise<Market> {
  const base = await createCurrency(app, admin, precisions.base ?? 2);
  const quote = await createCurrency(app, admin, precisions.quote ?? 2);
  return createPairBetween(app, admin, base, quote, extra);
}

/** Creates a pair trading `base` against `quote`; `extra` adds createPair fields. */
export async function createPairBetween(
  app: FastifyInstance,
  admin: Member,
  base: TestCurrency,
  quote: TestCurrency,
  extra: Record<string, unknown> = {},
): Promise<Market> {
  const res = await call(app, admin.token, 'POST', '/api/cex/createPair', {
    buyCurrency: base.currencyId,
    sellCurrency: quote.currencyId,
    canBuy: true,
    canSell: true,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(200);
  return { pair: res.json<{ pair: Pair }>().pair, base, quote };
}

/** A new member holding the given amounts: `{[currencyId]: "12.5"}`. */
export async function fundedMember(
  app: FastifyInstance,
  admin: Member,
  holdings: Record<number, string>,
  prefix = 'tr',
): Promise<Member> {
  const m = await registerMember(app, prefix);
  for (const [currencyId, amount] of Object.entries(holdings))
    await mint(app, admin, m.nickname, Number(currencyId), amount);
  return m;
}

/** placeOrder, returning the raw response. */
export function place(
  app: FastifyInstance,
  member: Member | undefined,
  pairId: string,
  buySide: boolean,
  initialAmount: string | number,
  price: string | number,
  headers: Record<string, string> = {},
) {
  return call(
    app,
    member?.token,
    'POST',
    '/api/cex/placeOrder',
    { pair: pairId, buySide, initialAmount, price },
    headers,
  );
}

/** placeOrder that must succeed; returns the body. */
export async function placeOk(
  app: FastifyInstance,
  member: Member,
  pairId: string,
  buySide: boolean,
  initialAmount: string | number,
  price: string | number,
): Promise<PlaceOrderResponse> {
  const res = await place(app, member, pairId, buySide, initialAmount, price);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<PlaceOrderResponse>();
}

/** A member's own orders through getUserOrders. */
export async function ordersOf(app: FastifyInstance, member: Member): Promise<Order[]> {
  const res = await call(app, member.token, 'GET', '/api/cex/getUserOrders');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ orders: Order[] }>().orders;
}

/**
 * Checks a pair's orders against the ledger and the rules, straight from the database:
 * each order's `escrow_remaining` equals what the ledger holds in escrow for it; an open buy holds
 * exactly ceil(rest x price), an open sell its rest, an Untriggered stop all it escrowed, a closed order
 * nothing; filled never exceeds
 * initial and equals the traded quantity (payouts aside); Filled means fully filled; the book is not crossed;
 * no trade has one member on both sides (self-trade prevention, DESIGN §5).
 */
export async function expectBookConsistent(built: BuiltApp, pairId: string, sellPrecision: number): Promise<void> {
  const res = await built.database.db.execute<{
    id: string;
    buy_side: boolean;
    state: number;
    initial: string;
    filled: string;
    price: string;
    escrow: string;
    ledger_escrow: string;
    traded: string;
    paid_out: boolean;
  }>(sql`
    SELECT o.id, o.buy_side, o.state, o.initial_amount::text AS initial, o.filled_amount::text AS filled,
      o.price::text AS price, o.escrow_remaining::text AS escrow,
      (SELECT coalesce(sum(CASE WHEN t.recipient_id IS NULL THEN t.amount ELSE -t.amount END), 0)::text
         FROM bank_transactions t WHERE t.reference = o.id AND t.escrow) AS ledger_escrow,
      (SELECT coalesce(sum(x.amount), 0)::text FROM exchange_trades x
         WHERE x.buy_order_id = o.id OR x.sell_order_id = o.id) AS traded,
      EXISTS (SELECT 1 FROM bank_transactions t WHERE t.reference = o.id AND t.category = 11) AS paid_out
    FROM exchange_orders o WHERE o.pair_id = ${pairId}`);
  let bestBid: bigint | null = null;
  let bestAsk: bigint | null = null;
  for (const o of res.rows) {
    const [initial, filled, price, escrow, ledger, traded] = [
      o.initial,
      o.filled,
      o.price,
      o.escrow,
      o.ledger_escrow,
      o.traded,
    ].map(fromNumeric) as [Amount, Amount, Amount, Amount, Amount, Amount];
    const where = `order ${o.id}`;
    expect(escrow, `${where}: escrow_remaining vs ledger`).toBe(ledger);
    expect(filled >= 0n && filled <= initial, `${where}: filled within initial`).toBe(true);
    if (!o.paid_out) expect(traded, `${where}: traded = filled`).toBe(filled);
    else expect(traded <= filled, `${where}: traded within a payout`).toBe(true);
    if (o.state === 1) {
      expect(filled < initial, `${where}: an open order has a rest`).toBe(true);
      const rest = initial - filled;
      expect(escrow, `${where}: escrow of the rest`).toBe(o.buy_side ? buyEscrowFor(rest, price, sellPrecision) : rest);
      if (o.buy_side && (bestBid === null || price > bestBid)) bestBid = price;
      if (!o.buy_side && (bestAsk === null || price < bestAsk)) bestAsk = price;
    } else if (o.state === 5) {
      // An Untriggered stop-limit order (DESIGN §11.4): off the book, nothing filled, its whole escrow held.
      expect(filled, `${where}: an untriggered order has not traded`).toBe(0n);
      expect(escrow, `${where}: escrow of a waiting stop`).toBe(
        o.buy_side ? buyEscrowFor(initial, price, sellPrecision) : initial,
      );
    } else {
      expect(escrow, `${where}: a closed order holds nothing`).toBe(0n);
      if (o.state === 3) expect(filled, `${where}: Filled is complete`).toBe(initial);
    }
  }
  if (bestBid !== null && bestAsk !== null) expect(bestBid < bestAsk, 'the book is not crossed').toBe(true);
  const selfTrades = await built.database.db.execute<{ id: string }>(sql`
    SELECT x.id FROM exchange_trades x
    JOIN exchange_orders b ON b.id = x.buy_order_id
    JOIN exchange_orders s ON s.id = x.sell_order_id
    WHERE x.pair_id = ${pairId} AND b.user_id = s.user_id`);
  expect(selfTrades.rows, 'no member trades with themselves').toEqual([]);
}

/** The exchange calls and reads of a test file's app `t` (read when called, after `useTestApp`'s `beforeAll`). */
export function exchangeCalls(t: TestApp) {
  /** cancelOrder as `who`. */
  const cancel = (who: Member | undefined, orderId: string, headers: Record<string, string> = {}) =>
    call(t.app, who?.token, 'POST', '/api/cex/cancelOrder', { orderId }, headers);
  /** payoutOrder as `who`. */
  const payout = (who: Member | undefined, orderId: string) =>
    call(t.app, who?.token, 'POST', '/api/cex/payoutOrder', { orderId });
  /** modifyPair as `who`. */
  const modify = (who: Member | undefined, body: Record<string, unknown>) =>
    call(t.app, who?.token, 'POST', '/api/cex/modifyPair', body);

  /** Admin log rows of `category` whose action contains `text`, oldest first. */
  async function adminLogs(
    category: number,
    text: string,
  ): Promise<Array<{ action: string; affected: string | null }>> {
    const res = await t.built.database.db.execute<{ action: string; affected: string | null }>(sql`
      SELECT action, affected_user_id AS affected FROM admin_logs
      WHERE category = ${category} AND action LIKE ${`%${text}%`} ORDER BY created_at`);
    return res.rows;
  }

  /** The ledger rows referencing an order, oldest first, amounts without trailing zeros. */
  async function ledgerRows(reference: string) {
    const res = await t.built.database.db.execute<{
      category: number;
      amount: string;
      sender_id: string | null;
      recipient_id: string | null;
      escrow: boolean;
    }>(sql`
      SELECT category, amount::text AS amount, sender_id, recipient_id, escrow FROM bank_transactions
      WHERE reference = ${reference} ORDER BY created_at, id`);
    return res.rows.map((r) => ({ ...r, amount: r.amount.replace(/\.?0+$/, '') }));
  }

  /** placeOrder on `mk`'s pair as `who` with any of its fields (type, time in force, post-only, expiry). */
  const placeWith = (who: Member, mk: Market, body: Record<string, unknown>) =>
    call(t.app, who.token, 'POST', '/api/cex/placeOrder', { pair: mk.pair._id, ...body });

  /** `placeWith` that must succeed; returns the body. */
  async function placeWithOk(who: Member, mk: Market, body: Record<string, unknown>): Promise<PlaceOrderResponse> {
    const res = await placeWith(who, mk, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PlaceOrderResponse>();
  }

  return { cancel, payout, modify, adminLogs, ledgerRows, placeWith, placeWithOk };
}
