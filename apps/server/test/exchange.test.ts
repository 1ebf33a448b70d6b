/**
 * The Quantum Hub through the API (SPEC §7 Exchange, DESIGN §5): every route with the role matrix and
 * ownership, escrow, refunds, price improvement and fees exact to the last unit, frozen pairs, disabled
 * sides, precision, payouts, pair deletion, market data and conservation.
 */
import type {
  CandlesResponse,
  DepthResponse,
  GetOrdersResponse,
  Order,
  Pair,
  PairsResponse,
  TradesResponse,
} from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMarket, fundedMember, type Market, ordersOf, place, placeOk } from './exchange.helpers.ts';
import { balanceOf, call, expectLedgerBalanced, type Member, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();

const cancel = (who: Member | undefined, orderId: string, headers: Record<string, string> = {}) =>
  call(t.app, who?.token, 'POST', '/api/cex/cancelOrder', { orderId }, headers);
const payout = (who: Member | undefined, orderId: string) =>
  call(t.app, who?.token, 'POST', '/api/cex/payoutOrder', { orderId });
const modify = (who: Member | undefined, body: Record<string, unknown>) =>
  call(t.app, who?.token, 'POST', '/api/cex/modifyPair', body);

async function adminLogs(category: number, text: string): Promise<Array<{ action: string; affected: string | null }>> {
  const res = await t.built.database.db.execute<{ action: string; affected: string | null }>(sql`
    SELECT action, affected_user_id AS affected FROM admin_logs
    WHERE category = ${category} AND action LIKE ${`%${text}%`} ORDER BY created_at`);
  return res.rows;
}

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

describe('pairs', () => {
  it('createPair composes the name, keeps the fee as a fraction and the collector by nickname', async () => {
    const collector = await registerMember(t.app, 'fee');
    const m = await createMarket(t.app, t.admin, {
      fee: 0.0025,
      feeCollector: collector.nickname,
      name: 'ignored name',
    });
    expect(m.pair).toMatchObject({
      name: `${m.base.name} → ${m.quote.name}`,
      buyCurrency: m.base.currencyId,
      sellCurrency: m.quote.currencyId,
      canBuy: true,
      canSell: true,
      visible: true,
      frozen: false,
      frozenNote: '',
      fee: '0.0025',
      feeCollector: collector.nickname,
    });
    expect(m.pair._id).toMatch(/^[0-9a-f]{24}$/);
    expect(await adminLogs(20, m.pair._id)).toHaveLength(1);
  });

  it('createPair refuses members, visitors, bad currencies, duplicates, unknown collectors and bad fees', async () => {
    const m = await createMarket(t.app, t.admin);
    const member = await registerMember(t.app);
    const body = { buyCurrency: m.base.currencyId, sellCurrency: m.quote.currencyId, canBuy: true, canSell: true };
    const create = (who: Member | undefined, b: Record<string, unknown>) =>
      call(t.app, who?.token, 'POST', '/api/cex/createPair', b);
    expect((await create(undefined, body)).statusCode).toBe(401);
    expect((await create(member, body)).statusCode).toBe(403);
    const dup = await create(t.admin, body);
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('This pair already exists');
    expect((await create(t.admin, { ...body, sellCurrency: 999_999 })).statusCode).toBe(404);
    const same = await create(t.admin, { ...body, sellCurrency: m.base.currencyId });
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe('"sellCurrency" contains an invalid value');
    const reverse = { ...body, buyCurrency: m.quote.currencyId, sellCurrency: m.base.currencyId };
    const badCollector = await create(t.admin, { ...reverse, feeCollector: 'nobody0000000' });
    expect(badCollector.statusCode).toBe(400);
    expect(badCollector.json().message).toBe('"feeCollector" contains an invalid value');
    expect((await create(t.admin, { ...reverse, fee: 1.5 })).statusCode).toBe(400);
    expect((await create(t.admin, { ...reverse, fee: -0.1 })).statusCode).toBe(400);
    expect((await create(t.admin, { ...reverse, role: 'x' })).json().message).toBe('"role" is not allowed');
    expect((await create(t.admin, { buyCurrency: 1 })).json().message).toBe('"sellCurrency" is required');
    // The reverse direction is another pair.
    expect((await create(t.admin, reverse)).statusCode).toBe(200);
  });

  it('getPairs shows visible pairs to everyone and hidden ones to admins only', async () => {
    const shown = await createMarket(t.app, t.admin);
    const hidden = await createMarket(t.app, t.admin, { visible: false });
    const member = await registerMember(t.app);
    for (const who of [undefined, member]) {
      const res = await call(t.app, who?.token, 'GET', '/api/cex/getPairs');
      expect(res.statusCode).toBe(200);
      const body = res.json<PairsResponse>();
      const ids = body.pairs.map((p) => p._id);
      expect(ids).toContain(shown.pair._id);
      expect(ids).not.toContain(hidden.pair._id);
      expect(body.message).toBe(`Got ${body.pairs.length} pair(s)`);
    }
    const asAdmin = await call(t.app, t.admin.token, 'GET', '/api/cex/getPairs');
    expect(asAdmin.json<PairsResponse>().pairs.map((p) => p._id)).toEqual(
      expect.arrayContaining([shown.pair._id, hidden.pair._id]),
    );
    // A bad token on a public route is a visitor, not an error.
    const bad = await call(t.app, 'not-a-token', 'GET', '/api/cex/getPairs');
    expect(bad.statusCode).toBe(200);
    expect(bad.json<PairsResponse>().pairs.map((p) => p._id)).not.toContain(hidden.pair._id);
    // Hidden pairs are not found for members anywhere else either.
    const trader = await fundedMember(t.app, t.admin, { [hidden.quote.currencyId]: '10' });
    expect((await place(t.app, trader, hidden.pair._id, true, 1, 1)).statusCode).toBe(404);
    expect((await call(t.app, undefined, 'POST', '/api/cex/getOrders', { pair: hidden.pair._id })).statusCode).toBe(
      404,
    );
    expect((await call(t.app, t.admin.token, 'POST', '/api/cex/getOrders', { pair: hidden.pair._id })).statusCode).toBe(
      200,
    );
  });

  it('modifyPair changes flags, fee and collector with "Pair modified" and an admin log row', async () => {
    const m = await createMarket(t.app, t.admin);
    const member = await registerMember(t.app);
    const collector = await registerMember(t.app, 'fee');
    const body = { pairId: m.pair._id, canBuy: false, fee: '0.5', feeCollector: collector.nickname, visible: false };
    expect((await modify(undefined, body)).statusCode).toBe(401);
    expect((await modify(member, body)).statusCode).toBe(403);
    expect((await modify(t.admin, { ...body, pairId: 'f'.repeat(24) })).statusCode).toBe(404);
    const res = await modify(t.admin, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Pair modified');
    expect(res.json<{ pair: Pair }>().pair).toMatchObject({
      canBuy: false,
      canSell: true,
      fee: '0.5',
      feeCollector: collector.nickname,
      visible: false,
      name: m.pair.name,
    });
    const cleared = await modify(t.admin, { pairId: m.pair._id, feeCollector: '' });
    expect(cleared.json<{ pair: Pair }>().pair.feeCollector).toBe('');
    expect(await adminLogs(21, 'Modified trade pair')).not.toHaveLength(0);
  });

  it('deletePair cancels and refunds the open orders first, then the pair is gone', async () => {
    const m = await createMarket(t.app, t.admin);
    const buyer = await fundedMember(t.app, t.admin, { [m.quote.currencyId]: '100' });
    const seller = await fundedMember(t.app, t.admin, { [m.base.currencyId]: '100' });
    await placeOk(t.app, buyer, m.pair._id, true, '10', '2.5');
    await placeOk(t.app, seller, m.pair._id, false, '4', '3');
    await placeOk(t.app, seller, m.pair._id, false, '1', '2.5');
    expect(await balanceOf(t.app, buyer, m.quote.currencyId)).toBe('75');
    const member = await registerMember(t.app);
    const del = (who: Member | undefined) =>
      call(t.app, who?.token, 'POST', '/api/cex/deletePair', { pairId: m.pair._id });
    expect((await del(undefined)).statusCode).toBe(401);
    expect((await del(member)).statusCode).toBe(403);
    const res = await del(t.admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ cancelledOrders: 2, message: 'Pair deleted (2 open orders cancelled)' });
    expect(await balanceOf(t.app, buyer, m.quote.currencyId)).toBe('97.5');
    expect(await balanceOf(t.app, buyer, m.base.currencyId)).toBe('1');
    expect(await balanceOf(t.app, seller, m.base.currencyId)).toBe('99');
    expect(await balanceOf(t.app, seller, m.quote.currencyId)).toBe('2.5');
    expect((await ordersOf(t.app, buyer)).map((o) => [o.state, o.filledAmount])).toEqual([[2, '1']]);
    const pairs = await call(t.app, t.admin.token, 'GET', '/api/cex/getPairs');
    expect(pairs.json<PairsResponse>().pairs.map((p) => p._id)).not.toContain(m.pair._id);
    expect((await call(t.app, undefined, 'POST', '/api/cex/getOrders', { pair: m.pair._id })).statusCode).toBe(404);
    expect((await place(t.app, buyer, m.pair._id, true, 1, 1)).statusCode).toBe(404);
    expect((await del(t.admin)).statusCode).toBe(404);
    expect(await adminLogs(22, m.pair._id)).toHaveLength(1);
    // The same currencies may be paired again.
    const again = await call(t.app, t.admin.token, 'POST', '/api/cex/createPair', {
      buyCurrency: m.base.currencyId,
      sellCurrency: m.quote.currencyId,
      canBuy: true,
      canSell: true,
    });
    expect(again.statusCode).toBe(200);
    await expectLedgerBalanced(t.app, t.admin);
  });
});

describe('placing orders', () => {
  let m: Market;
  beforeAll(async () => {
    m = await createMarket(t.app, t.admin);
  });

  it('escrows a buy (amount x price) and a sell (amount), with SPEC §8 messages', async () => {
    const buyer = await fundedMember(t.app, t.admin, { [m.quote.currencyId]: '100' });
    const res = await place(t.app, buyer, m.pair._id, true, '3', '1.5');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const text = `Placed a buy order of 3.00 ${m.base.ticker} at 1.50 ${m.quote.ticker}`;
    expect(body.message).toBe(text);
    expect(body.tx).toEqual({ note: text });
    expect(body.trades).toEqual([]);
    expect(Object.keys(body.order).sort()).toEqual(
      ['_id', 'buySide', 'createdAt', 'filledAmount', 'initialAmount', 'pair', 'price', 'state'].sort(),
    );
    expect(body.order).toMatchObject({
      pair: m.pair._id,
      buySide: true,
      initialAmount: '3',
      filledAmount: '0',
      price: '1.5',
      state: 1,
    });
    expect(await balanceOf(t.app, buyer, m.quote.currencyId)).toBe('95.5');
    expect(await ledgerRows(body.order._id)).toEqual([
      { category: 20, amount: '4.5', sender_id: buyer.id, recipient_id: null, escrow: true },
    ]);

    const seller = await fundedMember(t.app, t.admin, { [m.base.currencyId]: '10' });
    const sell = await placeOk(t.app, seller, m.pair._id, false, '2.25', '9');
    expect(sell.message).toBe(`Placed a Sell Order of 2.25 ${m.base.ticker} at 9.00 ${m.quote.ticker}`);
    expect(await balanceOf(t.app, seller, m.base.currencyId)).toBe('7.75');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('trades at the resting price, returns the price improvement, leaves the rest on the book', async () => {
    const mk = await createMarket(t.app, t.admin);
    const seller = await fundedMember(t.app, t.admin, { [mk.base.currencyId]: '10' });
    const buyer = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '10' });
    const s = await placeOk(t.app, seller, mk.pair._id, false, '2', '1');
    const b = await placeOk(t.app, buyer, mk.pair._id, true, '3', '1.5');
    expect(b.order).toMatchObject({ filledAmount: '2', state: 1 });
    expect(b.message).toBe(
      `Placed a buy order of 3.00 ${mk.base.ticker} at 1.50 ${mk.quote.ticker}; 2.00 ${mk.base.ticker} filled at once`,
    );
    expect(b.trades).toHaveLength(1);
    expect(b.trades[0]).toMatchObject({ pair: mk.pair._id, price: '1', amount: '2', buySide: true });
    // Escrowed 4.50, paid 2.00 for 2 at 1.00, got 1.00 back, 1.50 stays for the unfilled 1 at 1.50.
    expect(await balanceOf(t.app, buyer, mk.quote.currencyId)).toBe('6.5');
    expect(await balanceOf(t.app, buyer, mk.base.currencyId)).toBe('2');
    expect(await balanceOf(t.app, seller, mk.quote.currencyId)).toBe('2');
    expect(await balanceOf(t.app, seller, mk.base.currencyId)).toBe('8');
    expect(await ledgerRows(b.order._id)).toEqual([
      { category: 20, amount: '4.5', sender_id: buyer.id, recipient_id: null, escrow: true },
      { category: 22, amount: '2', sender_id: null, recipient_id: seller.id, escrow: true },
      { category: 22, amount: '1', sender_id: null, recipient_id: buyer.id, escrow: true },
    ]);
    const sellerOrders = await ordersOf(t.app, seller);
    expect(sellerOrders.find((o) => o._id === s.order._id)).toMatchObject({ state: 3, filledAmount: '2' });
    // Cancelling the rest returns exactly the 1.50 still in escrow.
    const c = await cancel(buyer, b.order._id);
    expect(c.statusCode, c.body).toBe(200);
    expect(c.json().message).toBe('Buy order cancelled');
    expect(c.json().order).toMatchObject({ state: 2, filledAmount: '2' });
    expect(await balanceOf(t.app, buyer, mk.quote.currencyId)).toBe('8');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('fills across price levels in price-time priority and records every trade', async () => {
    const mk = await createMarket(t.app, t.admin);
    const sellers = await Promise.all(
      [1, 2, 3].map(() => fundedMember(t.app, t.admin, { [mk.base.currencyId]: '10' })),
    );
    const [s1, s2, s3] = sellers as [Member, Member, Member];
    await placeOk(t.app, s1, mk.pair._id, false, '2', '1.10');
    await placeOk(t.app, s2, mk.pair._id, false, '2', '1.00');
    await placeOk(t.app, s3, mk.pair._id, false, '2', '1.00');
    const buyer = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '100' });
    const b = await placeOk(t.app, buyer, mk.pair._id, true, '5', '1.2');
    expect(b.order).toMatchObject({ filledAmount: '5', state: 3 });
    expect(b.trades.map((t) => [t.price, t.amount])).toEqual([
      ['1', '2'],
      ['1', '2'],
      ['1.1', '1'],
    ]);
    // 2 + 2 + 1.10 = 5.10 paid; the 0.90 of improvement came back.
    expect(await balanceOf(t.app, buyer, mk.quote.currencyId)).toBe('94.9');
    expect(await balanceOf(t.app, buyer, mk.base.currencyId)).toBe('5');
    expect(await balanceOf(t.app, s2, mk.quote.currencyId)).toBe('2');
    expect(await balanceOf(t.app, s3, mk.quote.currencyId)).toBe('2');
    expect(await balanceOf(t.app, s1, mk.quote.currencyId)).toBe('1.1');
    const book = await call(t.app, undefined, 'POST', '/api/cex/getOrders', { pair: mk.pair._id });
    expect(book.json<GetOrdersResponse>().orders.sells.map((o) => [o.price, o.initialAmount, o.filledAmount])).toEqual([
      ['1.1', '2', '1'],
    ]);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('a sell into bids trades at each bid price; the buyers keep no extra escrow', async () => {
    const mk = await createMarket(t.app, t.admin);
    const b1 = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '100' });
    const b2 = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '100' });
    await placeOk(t.app, b1, mk.pair._id, true, '1', '2');
    await placeOk(t.app, b2, mk.pair._id, true, '10', '3');
    const seller = await fundedMember(t.app, t.admin, { [mk.base.currencyId]: '20' });
    const s = await placeOk(t.app, seller, mk.pair._id, false, '10.5', '1');
    expect(s.order).toMatchObject({ filledAmount: '10.5', state: 3 });
    expect(s.trades.map((t) => [t.price, t.amount, t.buySide])).toEqual([
      ['3', '10', false],
      ['2', '0.5', false],
    ]);
    expect(await balanceOf(t.app, seller, mk.quote.currencyId)).toBe('31');
    expect(await balanceOf(t.app, b2, mk.quote.currencyId)).toBe('70');
    expect(await balanceOf(t.app, b1, mk.quote.currencyId)).toBe('98');
    expect(await balanceOf(t.app, b1, mk.base.currencyId)).toBe('0.5');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('rounds the buy escrow up and the cost down; the difference returns to the buyer exactly', async () => {
    const mk = await createMarket(t.app, t.admin);
    const seller = await fundedMember(t.app, t.admin, { [mk.base.currencyId]: '1' });
    const buyer = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '1' });
    // 0.33 x 0.33 = 0.1089: the buy escrows 0.11 (up), the fill costs 0.10 (down), 0.01 returns.
    const b = await placeOk(t.app, buyer, mk.pair._id, true, '0.33', '0.33');
    expect(await balanceOf(t.app, buyer, mk.quote.currencyId)).toBe('0.89');
    const s = await placeOk(t.app, seller, mk.pair._id, false, '0.33', '0.33');
    expect(s.trades.map((t) => [t.price, t.amount])).toEqual([['0.33', '0.33']]);
    expect(await balanceOf(t.app, buyer, mk.quote.currencyId)).toBe('0.9');
    expect(await balanceOf(t.app, seller, mk.quote.currencyId)).toBe('0.1');
    expect(await ledgerRows(b.order._id)).toEqual([
      { category: 20, amount: '0.11', sender_id: buyer.id, recipient_id: null, escrow: true },
      { category: 22, amount: '0.1', sender_id: null, recipient_id: seller.id, escrow: true },
      { category: 22, amount: '0.01', sender_id: null, recipient_id: buyer.id, escrow: true },
    ]);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('charges the fee on each side’s proceeds to the collector (category 23)', async () => {
    const collector = await registerMember(t.app, 'fee');
    const mk = await createMarket(t.app, t.admin, { fee: '0.01', feeCollector: collector.nickname });
    const seller = await fundedMember(t.app, t.admin, { [mk.base.currencyId]: '10' });
    const buyer = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '30' });
    const s = await placeOk(t.app, seller, mk.pair._id, false, '10', '2.5');
    const b = await placeOk(t.app, buyer, mk.pair._id, true, '10', '3');
    expect(b.order.state).toBe(3);
    expect(await balanceOf(t.app, buyer, mk.base.currencyId)).toBe('9.9');
    expect(await balanceOf(t.app, buyer, mk.quote.currencyId)).toBe('5');
    expect(await balanceOf(t.app, seller, mk.quote.currencyId)).toBe('24.75');
    expect(await balanceOf(t.app, seller, mk.base.currencyId)).toBe('0');
    expect(await balanceOf(t.app, collector, mk.base.currencyId)).toBe('0.1');
    expect(await balanceOf(t.app, collector, mk.quote.currencyId)).toBe('0.25');
    expect((await ledgerRows(s.order._id)).filter((r) => r.category === 23)).toEqual([
      { category: 23, amount: '0.25', sender_id: seller.id, recipient_id: collector.id, escrow: false },
    ]);
    expect((await ledgerRows(b.order._id)).filter((r) => r.category === 23)).toEqual([
      { category: 23, amount: '0.1', sender_id: buyer.id, recipient_id: collector.id, escrow: false },
    ]);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('burns the fee when the pair has no collector, and rounds fees down', async () => {
    const mk = await createMarket(t.app, t.admin, { fee: '0.003' });
    const seller = await fundedMember(t.app, t.admin, { [mk.base.currencyId]: '10' });
    const buyer = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '10' });
    await placeOk(t.app, seller, mk.pair._id, false, '5', '1.99');
    await placeOk(t.app, buyer, mk.pair._id, true, '5', '1.99');
    // Buyer: 5 x 0.003 = 0.015 -> 0.01 burned. Seller: 9.95 x 0.003 = 0.02985 -> 0.02 burned.
    expect(await balanceOf(t.app, buyer, mk.base.currencyId)).toBe('4.99');
    expect(await balanceOf(t.app, seller, mk.quote.currencyId)).toBe('9.93');
    const audit = await expectLedgerBalanced(t.app, t.admin);
    expect(audit.currencies.find((c) => c.currencyId === mk.base.currencyId)?.removed).toBe('0.01');
    expect(audit.currencies.find((c) => c.currencyId === mk.quote.currencyId)?.removed).toBe('0.02');
  });

  it('refuses missing funds without leaving an order behind', async () => {
    const mk = await createMarket(t.app, t.admin);
    const poor = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '4.49' });
    const res = await place(t.app, poor, mk.pair._id, true, '3', '1.5');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'Insufficient funds' });
    expect(await ordersOf(t.app, poor)).toEqual([]);
    expect(await balanceOf(t.app, poor, mk.quote.currencyId)).toBe('4.49');
    // A member who never held the currency at all.
    const empty = await registerMember(t.app);
    expect((await place(t.app, empty, mk.pair._id, false, '1', '1')).statusCode).toBe(409);
    // Funds promised by a crossing sell do not count: the escrow must be there first.
    const seller = await fundedMember(t.app, t.admin, { [mk.base.currencyId]: '10' });
    await placeOk(t.app, seller, mk.pair._id, false, '3', '0.5');
    expect((await place(t.app, poor, mk.pair._id, true, '3', '2')).statusCode).toBe(409);
  });

  it('checks both currencies’ precision and the order’s value', async () => {
    const mk = await createMarket(t.app, t.admin, {}, { base: 0, quote: 3 });
    const trader = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '100' });
    const expect400 = async (qty: string | number, price: string | number, message: string) => {
      const res = await place(t.app, trader, mk.pair._id, true, qty, price);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toBe(message);
    };
    await expect400('1.5', '1', '"initialAmount" contains an invalid value');
    await expect400('1', '1.0001', '"price" contains an invalid value');
    await expect400('0.001', '1', '"initialAmount" contains an invalid value');
    await expect400('abc', '1', '"initialAmount" contains an invalid value');
    await expect400(-1, '1', '"initialAmount" contains an invalid value');
    await expect400('1', '0', '"price" contains an invalid value');
    await expect400('1', 1e-12, '"price" contains an invalid value');
    expect((await place(t.app, trader, mk.pair._id, true, 2, '0.011')).statusCode).toBe(200);
    expect((await place(t.app, trader, 'f'.repeat(24), true, 2, '1')).statusCode).toBe(404);
    const bad = await call(t.app, trader.token, 'POST', '/api/cex/placeOrder', {
      pair: mk.pair._id,
      initialAmount: 1,
      price: 1,
    });
    expect([bad.statusCode, bad.json().message]).toEqual([400, '"buySide" is required']);

    const mk2 = await createMarket(t.app, t.admin);
    const t2 = await fundedMember(t.app, t.admin, { [mk2.quote.currencyId]: '100' });
    const tiny = await place(t.app, t2, mk2.pair._id, true, '0.5', '0.01');
    expect(tiny.statusCode).toBe(400);
    expect(tiny.json().message).toBe(`The order is worth less than 0.01 ${mk2.quote.ticker}`);
  });

  it('frozen pairs answer their frozenNote; disabled sides are refused; cancels still work', async () => {
    const mk = await createMarket(t.app, t.admin);
    const trader = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '10', [mk.base.currencyId]: '10' });
    const open = await placeOk(t.app, trader, mk.pair._id, true, '1', '1');
    await modify(t.admin, { pairId: mk.pair._id, frozen: true, frozenNote: 'Hub maintenance until noon' });
    const frozen = await place(t.app, trader, mk.pair._id, true, '1', '1');
    expect(frozen.statusCode).toBe(409);
    expect(frozen.json().message).toBe('Hub maintenance until noon');
    expect((await cancel(trader, open.order._id)).statusCode).toBe(200);
    await modify(t.admin, { pairId: mk.pair._id, frozen: true, frozenNote: '' });
    expect((await place(t.app, trader, mk.pair._id, false, '1', '1')).json().message).toBe('This pair is frozen');

    await modify(t.admin, { pairId: mk.pair._id, frozen: false, canBuy: false });
    const noBuy = await place(t.app, trader, mk.pair._id, true, '1', '1');
    expect([noBuy.statusCode, noBuy.json().message]).toEqual([409, 'Buying is disabled on this pair']);
    expect((await place(t.app, trader, mk.pair._id, false, '1', '5')).statusCode).toBe(200);
    await modify(t.admin, { pairId: mk.pair._id, canBuy: true, canSell: false });
    const noSell = await place(t.app, trader, mk.pair._id, false, '1', '5');
    expect([noSell.statusCode, noSell.json().message]).toEqual([409, 'Selling is disabled on this pair']);
    expect((await place(t.app, trader, mk.pair._id, true, '1', '1')).statusCode).toBe(200);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('replays a placeOrder with the same Idempotency-Key without placing it again', async () => {
    const mk = await createMarket(t.app, t.admin);
    const trader = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '10' });
    const headers = { 'idempotency-key': `order-${trader.id}` };
    const [r1, r2] = await Promise.all([
      place(t.app, trader, mk.pair._id, true, '2', '1', headers),
      place(t.app, trader, mk.pair._id, true, '2', '1', headers),
    ]);
    expect([r1.statusCode, r2.statusCode]).toEqual([200, 200]);
    expect(r1.json().order._id).toBe(r2.json().order._id);
    expect(await ordersOf(t.app, trader)).toHaveLength(1);
    expect(await balanceOf(t.app, trader, mk.quote.currencyId)).toBe('8');
    expect((await place(t.app, trader, mk.pair._id, true, '3', '1', headers)).statusCode).toBe(409);
  });
});

describe('cancelling and paying out', () => {
  let m: Market;
  beforeAll(async () => {
    m = await createMarket(t.app, t.admin);
  });

  it('only the owner or an admin cancels; another member gets 404; twice is 409', async () => {
    const owner = await fundedMember(t.app, t.admin, { [m.base.currencyId]: '10' });
    const other = await registerMember(t.app);
    const o = await placeOk(t.app, owner, m.pair._id, false, '4', '2');
    expect((await cancel(undefined, o.order._id)).statusCode).toBe(401);
    const foreign = await cancel(other, o.order._id);
    expect([foreign.statusCode, foreign.json().message]).toEqual([404, 'Order not found']);
    expect((await cancel(owner, 'a'.repeat(24))).statusCode).toBe(404);
    expect((await cancel(owner, 'short')).statusCode).toBe(400);
    const res = await cancel(owner, o.order._id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ order: { ...o.order, state: 2 }, message: 'Sell order cancelled' });
    expect(await balanceOf(t.app, owner, m.base.currencyId)).toBe('10');
    const again = await cancel(owner, o.order._id);
    expect([again.statusCode, again.json().message]).toEqual([409, 'Order is not open']);
    expect(await ledgerRows(o.order._id)).toEqual([
      { category: 20, amount: '4', sender_id: owner.id, recipient_id: null, escrow: true },
      { category: 21, amount: '4', sender_id: null, recipient_id: owner.id, escrow: true },
    ]);

    const o2 = await placeOk(t.app, owner, m.pair._id, false, '1', '2');
    const byAdmin = await cancel(t.admin, o2.order._id);
    expect(byAdmin.statusCode).toBe(200);
    expect(await balanceOf(t.app, owner, m.base.currencyId)).toBe('10');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('payoutOrder burns the escrowed rest of a sell order and fills it (admin only)', async () => {
    const seller = await fundedMember(t.app, t.admin, { [m.base.currencyId]: '10' });
    const buyer = await fundedMember(t.app, t.admin, { [m.quote.currencyId]: '100' });
    const s = await placeOk(t.app, seller, m.pair._id, false, '6', '7');
    await placeOk(t.app, buyer, m.pair._id, true, '2', '7');
    expect((await payout(undefined, s.order._id)).statusCode).toBe(401);
    expect((await payout(seller, s.order._id)).statusCode).toBe(403);
    expect((await payout(t.admin, 'b'.repeat(24))).statusCode).toBe(404);
    const before = await expectLedgerBalanced(t.app, t.admin);
    const removedBefore = before.currencies.find((c) => c.currencyId === m.base.currencyId)?.removed;
    const res = await payout(t.admin, s.order._id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      order: { ...s.order, filledAmount: '6', state: 3 },
      message: 'Sell order paid out',
    });
    expect(await balanceOf(t.app, seller, m.base.currencyId)).toBe('4');
    expect(await balanceOf(t.app, seller, m.quote.currencyId)).toBe('14');
    const rows = await ledgerRows(s.order._id);
    expect(rows.slice(-2)).toEqual([
      { category: 22, amount: '4', sender_id: null, recipient_id: seller.id, escrow: true },
      { category: 11, amount: '4', sender_id: seller.id, recipient_id: null, escrow: false },
    ]);
    const after = await expectLedgerBalanced(t.app, t.admin);
    expect(Number(after.currencies.find((c) => c.currencyId === m.base.currencyId)?.removed)).toBe(
      Number(removedBefore) + 4,
    );
    expect((await payout(t.admin, s.order._id)).statusCode).toBe(409);
    const logs = await adminLogs(5, s.order._id);
    expect(logs).toHaveLength(1);
    expect(logs[0]?.affected).toBe(seller.id);

    const b = await placeOk(t.app, buyer, m.pair._id, true, '1', '1');
    const refused = await payout(t.admin, b.order._id);
    expect([refused.statusCode, refused.json().message]).toEqual([409, 'Only sell orders can be paid out']);
  });
});

describe('market data', () => {
  it('getOrders lists open orders without owners, best first; getUserOrders lists own orders newest first', async () => {
    const mk = await createMarket(t.app, t.admin);
    const a = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '100', [mk.base.currencyId]: '100' });
    const b = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '100', [mk.base.currencyId]: '100' });
    const o1 = await placeOk(t.app, a, mk.pair._id, true, '1', '1');
    const o2 = await placeOk(t.app, b, mk.pair._id, true, '1', '2');
    const o3 = await placeOk(t.app, a, mk.pair._id, true, '1', '2');
    const o4 = await placeOk(t.app, b, mk.pair._id, false, '1', '5');
    const o5 = await placeOk(t.app, a, mk.pair._id, false, '1', '4');
    const gone = await placeOk(t.app, a, mk.pair._id, false, '1', '6');
    await cancel(a, gone.order._id);
    const res = await call(t.app, undefined, 'POST', '/api/cex/getOrders', { pair: mk.pair._id });
    expect(res.statusCode).toBe(200);
    const body = res.json<GetOrdersResponse>();
    expect(body.message).toBe('Got 5 Orders');
    expect(body.orders.buys.map((o) => o._id)).toEqual([o2.order._id, o3.order._id, o1.order._id]);
    expect(body.orders.sells.map((o) => o._id)).toEqual([o5.order._id, o4.order._id]);
    for (const o of [...body.orders.buys, ...body.orders.sells]) {
      expect(Object.keys(o).sort()).toEqual(
        ['_id', 'buySide', 'createdAt', 'filledAmount', 'initialAmount', 'pair', 'price', 'state'].sort(),
      );
    }
    expect((await call(t.app, undefined, 'POST', '/api/cex/getOrders', {})).statusCode).toBe(400);
    expect((await call(t.app, undefined, 'POST', '/api/cex/getOrders', { pair: 'c'.repeat(24) })).statusCode).toBe(404);

    expect((await call(t.app, undefined, 'GET', '/api/cex/getUserOrders')).statusCode).toBe(401);
    const mine = await call(t.app, a.token, 'GET', '/api/cex/getUserOrders');
    const mineBody = mine.json<{ orders: Order[]; message: string }>();
    expect(mineBody.message).toBe('Got 4 Orders');
    expect(mineBody.orders.map((o) => [o._id, o.state])).toEqual([
      [gone.order._id, 2],
      [o5.order._id, 1],
      [o3.order._id, 1],
      [o1.order._id, 1],
    ]);
    const filtered = await call(t.app, a.token, 'GET', `/api/cex/getUserOrders?pair=${'d'.repeat(24)}`);
    expect(filtered.json<{ orders: Order[] }>().orders).toEqual([]);
    const byPair = await call(t.app, b.token, 'GET', `/api/cex/getUserOrders?pair=${mk.pair._id}`);
    expect(byPair.json<{ orders: Order[] }>().orders.map((o) => o._id)).toEqual([o4.order._id, o2.order._id]);
  });

  it('getTrades, getCandles and getDepth describe the market for the chart', async () => {
    const mk = await createMarket(t.app, t.admin);
    const maker = await fundedMember(t.app, t.admin, { [mk.base.currencyId]: '100' });
    const taker = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '1000' });
    await placeOk(t.app, maker, mk.pair._id, false, '1', '10');
    await placeOk(t.app, maker, mk.pair._id, false, '2', '12');
    await placeOk(t.app, maker, mk.pair._id, false, '3', '11');
    await placeOk(t.app, maker, mk.pair._id, false, '4', '13');
    await placeOk(t.app, maker, mk.pair._id, false, '5', '13');
    await placeOk(t.app, taker, mk.pair._id, true, '4', '12'); // 1 @ 10, 3 @ 11
    await placeOk(t.app, taker, mk.pair._id, true, '1', '12'); // 1 @ 12
    await placeOk(t.app, taker, mk.pair._id, true, '2', '9');

    const trades = await call(t.app, undefined, 'POST', '/api/cex/getTrades', { pair: mk.pair._id });
    expect(trades.statusCode).toBe(200);
    const tBody = trades.json<TradesResponse>();
    expect(tBody.message).toBe('Got 3 trades');
    expect(tBody.trades.map((t) => [t.price, t.amount, t.buySide])).toEqual([
      ['12', '1', true],
      ['11', '3', true],
      ['10', '1', true],
    ]);
    const limited = await call(t.app, undefined, 'POST', '/api/cex/getTrades', { pair: mk.pair._id, limit: 1 });
    expect(limited.json<TradesResponse>().trades).toHaveLength(1);

    const candles = await call(t.app, undefined, 'POST', '/api/cex/getCandles', { pair: mk.pair._id, interval: '1d' });
    expect(candles.statusCode).toBe(200);
    const cBody = candles.json<CandlesResponse>();
    expect(cBody.candles.map(({ time: _t, ...c }) => c)).toEqual([
      { open: '10', high: '12', low: '10', close: '12', volume: '5' },
    ]);
    expect(cBody.candles[0]?.time).toMatch(/T00:00:00\.000Z$/);
    const bad = await call(t.app, undefined, 'POST', '/api/cex/getCandles', { pair: mk.pair._id, interval: '2m' });
    expect(bad.statusCode).toBe(400);

    const depth = await call(t.app, undefined, 'POST', '/api/cex/getDepth', { pair: mk.pair._id });
    expect(depth.statusCode).toBe(200);
    const d = depth.json<DepthResponse>().depth;
    expect(d.sells).toEqual([
      { price: '12', amount: '1', orders: 1 },
      { price: '13', amount: '9', orders: 2 },
    ]);
    expect(d.buys).toEqual([{ price: '9', amount: '2', orders: 1 }]);
    const one = await call(t.app, undefined, 'POST', '/api/cex/getDepth', { pair: mk.pair._id, levels: 1 });
    expect(one.json<DepthResponse>().depth.sells).toHaveLength(1);
    for (const url of ['/api/cex/getTrades', '/api/cex/getDepth']) {
      expect((await call(t.app, undefined, 'POST', url, { pair: 'e'.repeat(24) })).statusCode).toBe(404);
    }
  });
});

describe('role matrix', () => {
  it('answers each exchange route by role: 401 for visitors, 403 for members on admin routes', async () => {
    const mk = await createMarket(t.app, t.admin);
    const member = await fundedMember(t.app, t.admin, { [mk.base.currencyId]: '10' });
    const own = await placeOk(t.app, member, mk.pair._id, false, '1', '1');
    const pairId = mk.pair._id;
    const routes: Array<[method: 'GET' | 'POST', url: string, body: unknown, visitor: number, member: number]> = [
      ['POST', '/api/cex/createPair', { buyCurrency: 1, sellCurrency: 2, canBuy: true, canSell: true }, 401, 403],
      ['POST', '/api/cex/modifyPair', { pairId, canBuy: true }, 401, 403],
      ['POST', '/api/cex/deletePair', { pairId: 'f'.repeat(24) }, 401, 403],
      ['POST', '/api/cex/payoutOrder', { orderId: own.order._id }, 401, 403],
      ['GET', '/api/cex/getPairs', undefined, 200, 200],
      ['POST', '/api/cex/placeOrder', { pair: pairId, buySide: false, initialAmount: 1, price: 3 }, 401, 200],
      ['POST', '/api/cex/cancelOrder', { orderId: own.order._id }, 401, 200],
      ['POST', '/api/cex/getOrders', { pair: pairId }, 200, 200],
      ['GET', '/api/cex/getUserOrders', undefined, 401, 200],
      ['POST', '/api/cex/getTrades', { pair: pairId }, 200, 200],
      ['POST', '/api/cex/getCandles', { pair: pairId, interval: '1h' }, 200, 200],
      ['POST', '/api/cex/getDepth', { pair: pairId }, 200, 200],
    ];
    for (const [method, url, body, visitorStatus, memberStatus] of routes) {
      const v = await call(t.app, undefined, method, url, body);
      expect(v.statusCode, `${url} as visitor`).toBe(visitorStatus);
      if (visitorStatus === 401) expect(v.json().message).toBe('Not authorized');
      const mres = await call(t.app, member.token, method, url, body);
      expect(mres.statusCode, `${url} as member: ${mres.body}`).toBe(memberStatus);
    }
    await expectLedgerBalanced(t.app, t.admin);
  });
});
