/**
 * Orders through the API (SPEC §7 Exchange, DESIGN §5): escrow, matching, price improvement and fees exact
 * to the last unit, refusals, frozen pairs and disabled sides, cancels, payouts and conservation.
 */
import type { GetOrdersResponse } from '@starlight/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createMarket,
  exchangeCalls,
  fundedMember,
  type Market,
  ordersOf,
  place,
  placeOk,
} from './exchange.helpers.ts';
import { balanceOf, call, expectLedgerBalanced, type Member, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();
const { cancel, payout, modify, adminLogs, ledgerRows } = exchangeCalls(t);

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
      [
        '_id',
        'buySide',
        'createdAt',
        'filledAmount',
        'initialAmount',
        'pair',
        'price',
        'state',
        'type',
        'timeInForce',
        'postOnly',
        'stopPrice',
        'expiresAt',
        'expired',
      ].sort(),
    );
    expect(body.order).toMatchObject({
      pair: m.pair._id,
      buySide: true,
      initialAmount: '3.00',
      filledAmount: '0.00',
      price: '1.50',
      state: 1,
      type: 'limit',
      timeInForce: 'GTC',
      postOnly: false,
      stopPrice: null,
      expiresAt: null,
      expired: false,
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
    expect(b.order).toMatchObject({ filledAmount: '2.00', state: 1 });
    expect(b.message).toBe(
      `Placed a buy order of 3.00 ${mk.base.ticker} at 1.50 ${mk.quote.ticker}; 2.00 ${mk.base.ticker} filled at once`,
    );
    expect(b.trades).toHaveLength(1);
    expect(b.trades[0]).toMatchObject({ pair: mk.pair._id, price: '1.00', amount: '2.00', buySide: true });
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
    expect(sellerOrders.find((o) => o._id === s.order._id)).toMatchObject({ state: 3, filledAmount: '2.00' });
    // Cancelling the rest returns exactly the 1.50 still in escrow.
    const c = await cancel(buyer, b.order._id);
    expect(c.statusCode, c.body).toBe(200);
    expect(c.json().message).toBe('Buy order cancelled');
    expect(c.json().order).toMatchObject({ state: 2, filledAmount: '2.00' });
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
    expect(b.order).toMatchObject({ filledAmount: '5.00', state: 3 });
    expect(b.trades.map((t) => [t.price, t.amount])).toEqual([
      ['1.00', '2.00'],
      ['1.00', '2.00'],
      ['1.10', '1.00'],
    ]);
    // 2 + 2 + 1.10 = 5.10 paid; the 0.90 of improvement came back.
    expect(await balanceOf(t.app, buyer, mk.quote.currencyId)).toBe('94.9');
    expect(await balanceOf(t.app, buyer, mk.base.currencyId)).toBe('5');
    expect(await balanceOf(t.app, s2, mk.quote.currencyId)).toBe('2');
    expect(await balanceOf(t.app, s3, mk.quote.currencyId)).toBe('2');
    expect(await balanceOf(t.app, s1, mk.quote.currencyId)).toBe('1.1');
    const book = await call(t.app, undefined, 'POST', '/api/cex/getOrders', { pair: mk.pair._id });
    expect(book.json<GetOrdersResponse>().orders.sells.map((o) => [o.price, o.initialAmount, o.filledAmount])).toEqual([
      ['1.10', '2.00', '1.00'],
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
    expect(s.order).toMatchObject({ filledAmount: '10.50', state: 3 });
    expect(s.trades.map((t) => [t.price, t.amount, t.buySide])).toEqual([
      ['3.00', '10.00', false],
      ['2.00', '0.50', false],
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

  it('burns the fee when the pair has no collector, and rounds fees up (DESIGN §4)', async () => {
    const mk = await createMarket(t.app, t.admin, { fee: '0.003' });
    const seller = await fundedMember(t.app, t.admin, { [mk.base.currencyId]: '10' });
    const buyer = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '10' });
    await placeOk(t.app, seller, mk.pair._id, false, '5', '1.99');
    await placeOk(t.app, buyer, mk.pair._id, true, '5', '1.99');
    // Buyer: 5 x 0.003 = 0.015 -> 0.02 burned. Seller: 9.95 x 0.003 = 0.02985 -> 0.03 burned.
    expect(await balanceOf(t.app, buyer, mk.base.currencyId)).toBe('4.98');
    expect(await balanceOf(t.app, seller, mk.quote.currencyId)).toBe('9.92');
    const audit = await expectLedgerBalanced(t.app, t.admin);
    expect(audit.currencies.find((c) => c.currencyId === mk.base.currencyId)?.removed).toBe('0.02');
    expect(audit.currencies.find((c) => c.currencyId === mk.quote.currencyId)?.removed).toBe('0.03');
  });

  it('small fills cannot avoid the fee: 20 trades of 0.01 at a 0.3 fee each pay the collector', async () => {
    // The attack: 0.01 x 0.3 = 0.003 rounded down to nothing, so splitting an order avoided every fee.
    const collector = await registerMember(t.app, 'split');
    const mk = await createMarket(t.app, t.admin, { fee: '0.3', feeCollector: collector.nickname });
    const seller = await fundedMember(t.app, t.admin, { [mk.base.currencyId]: '1' });
    const buyer = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '1' });
    for (let i = 0; i < 20; i++) {
      await placeOk(t.app, seller, mk.pair._id, false, '0.01', '1');
      const b = await placeOk(t.app, buyer, mk.pair._id, true, '0.01', '1');
      expect(b.order.state).toBe(3);
    }
    // Each side's 0.01 of proceeds pays a fee of 0.003, rounded up to the smallest unit: 0.01.
    expect(await balanceOf(t.app, collector, mk.base.currencyId)).toBe('0.2');
    expect(await balanceOf(t.app, collector, mk.quote.currencyId)).toBe('0.2');
    expect(await balanceOf(t.app, buyer, mk.quote.currencyId)).toBe('0.8');
    expect(await balanceOf(t.app, seller, mk.base.currencyId)).toBe('0.8');
    await expectLedgerBalanced(t.app, t.admin);
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
    await expect400('1.5', '1', 'Initial amount must be a whole number');
    await expect400('1', '1.0001', 'Price can have at most 3 decimals');
    await expect400('0.001', '1', 'Initial amount must be at least 0.01');
    await expect400('abc', '1', 'Initial amount must be a number, like 12.50');
    await expect400(-1, '1', 'Initial amount must be at least 0.01');
    await expect400('1', '0', 'Price must be at least 0.01');
    await expect400('1', 1e-12, 'Price must be at least 0.01');
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
      order: { ...s.order, filledAmount: '6.00', state: 3 },
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
