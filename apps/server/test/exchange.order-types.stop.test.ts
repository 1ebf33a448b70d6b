/**
 * Stop-limit orders (DESIGN §11.4): held in state 5 Untriggered with their escrow taken, off the book, and
 * placed as limit orders when a trade prints at or past the stop (buys at or above, sells at or below),
 * a trade of the same batch included; cancels, cancel-all and expiry return their escrow; bad input
 * changes nothing. Every test ends with the books consistent and the ledger balanced.
 */
import { type Amount, type GetOrdersResponse, type OrderType, parseAmount } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { inTransaction } from '../src/db/transaction.ts';
import { withLiveChanges } from '../src/http/money-moving.ts';
import { LiveChanges } from '../src/lib/live-changes.ts';
import { withJobLock } from '../src/lib/periodic.ts';
import { expireDueOrders } from '../src/modules/exchange/orders.expiry.ts';
import { placeOrders } from '../src/modules/exchange/orders.service.ts';
import {
  createMarket,
  exchangeCalls,
  expectBookConsistent,
  fundedMember,
  type Market,
  ordersOf,
  placeOk,
} from './exchange.helpers.ts';
import { balanceOf, call, expectLedgerBalanced, type Member, useTestApp } from './helpers.ts';

const t = useTestApp();
const { cancel, ledgerRows, placeWith, placeWithOk } = exchangeCalls(t);

/** A member's order `id` as getUserOrders shows it. */
async function orderOf(member: Member, id: string) {
  return (await ordersOf(t.app, member)).find((o) => o._id === id);
}

/** The public book of `mk`'s pair. */
async function bookOf(mk: Market) {
  const res = await call(t.app, undefined, 'POST', '/api/cex/getOrders', { pair: mk.pair._id });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<GetOrdersResponse>().orders;
}

/** Book consistency and a balanced ledger with no negative balance: how every test here ends. */
async function expectSound(mk: Market) {
  await expectBookConsistent(t.built, mk.pair._id, mk.quote.precision);
  await expectLedgerBalanced(t.app, t.admin);
}

describe('stop-limit orders', () => {
  it('waits Untriggered with its escrow taken, then buys once a trade prints at its stop', async () => {
    const mk = await createMarket(t.app, t.admin);
    const maker = await fundedMember(t.app, t.admin, { [mk.base.currencyId]: '5' });
    await placeOk(t.app, maker, mk.pair._id, false, '1', '2');
    await placeOk(t.app, maker, mk.pair._id, false, '1', '2.5');
    const stopper = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '10' });
    const stop = await placeWithOk(stopper, mk, {
      buySide: true,
      type: 'stop_limit',
      initialAmount: '1',
      price: '2.5',
      stopPrice: '2',
    });
    const { base, quote } = { base: mk.base.ticker, quote: mk.quote.ticker };
    expect(stop.message).toBe(
      `Placed a buy order of 1.00 ${base} at 2.50 ${quote}; it waits for a trade at or above 2.00 ${quote}`,
    );
    expect(stop.order).toMatchObject({ state: 5, type: 'stop_limit', stopPrice: '2.00', filledAmount: '0.00' });
    expect(stop.trades).toEqual([]);
    expect(await balanceOf(t.app, stopper, mk.quote.currencyId)).toBe('7.5');
    // Off the book, and nothing traded although a sell at 2 would cross its price.
    expect((await bookOf(mk)).buys).toEqual([]);
    await expectSound(mk);

    // Another member's buy trades at 2.00: the stop triggers and takes the sell at 2.50.
    const taker = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '10' });
    await placeOk(t.app, taker, mk.pair._id, true, '1', '2');
    expect(await orderOf(stopper, stop.order._id)).toMatchObject({ state: 3, filledAmount: '1.00' });
    expect(await balanceOf(t.app, stopper, mk.base.currencyId)).toBe('1');
    expect(await balanceOf(t.app, stopper, mk.quote.currencyId)).toBe('7.5');
    expect(await balanceOf(t.app, maker, mk.quote.currencyId)).toBe('4.5');
    expect(await ledgerRows(stop.order._id)).toEqual([
      { category: 20, amount: '2.5', sender_id: stopper.id, recipient_id: null, escrow: true },
      { category: 22, amount: '2.5', sender_id: null, recipient_id: maker.id, escrow: true },
    ]);
    await expectSound(mk);
  });

  it('rests when triggered and nothing crosses, its time priority starting then', async () => {
    const mk = await createMarket(t.app, t.admin);
    const seller = await fundedMember(t.app, t.admin, { [mk.base.currencyId]: '5' });
    const stop = await placeWithOk(seller, mk, {
      buySide: false,
      type: 'stop_limit',
      initialAmount: '1',
      price: '3',
      stopPrice: '1.5',
    });
    expect(await balanceOf(t.app, seller, mk.base.currencyId)).toBe('4');
    const other = await fundedMember(t.app, t.admin, { [mk.base.currencyId]: '5' });
    const earlier = await placeOk(t.app, other, mk.pair._id, false, '1', '3');
    // A trade at 1.50 (at the stop): the stop sell rests at 3.00, after the sell already there.
    const buyer = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '20' });
    await placeOk(t.app, other, mk.pair._id, false, '1', '1.5');
    await placeOk(t.app, buyer, mk.pair._id, true, '1', '1.5');
    expect(await orderOf(seller, stop.order._id)).toMatchObject({ state: 1, filledAmount: '0.00' });
    expect((await bookOf(mk)).sells.map((o) => o._id)).toEqual([earlier.order._id, stop.order._id]);
    // A buy of one at 3.00 takes the earlier sell first.
    await placeOk(t.app, buyer, mk.pair._id, true, '1', '3');
    expect(await orderOf(seller, stop.order._id)).toMatchObject({ state: 1 });
    expect(await orderOf(other, earlier.order._id)).toMatchObject({ state: 3 });
    await expectSound(mk);
  });

  it('triggers on a later trade of the same batch, then stops its own trades trigger, and no earlier trade', async () => {
    const mk = await createMarket(t.app, t.admin);
    const m = await Promise.all(
      ['a', 'c', 'd', 'e', 'f', 'h', 'y'].map(() =>
        fundedMember(t.app, t.admin, { [mk.base.currencyId]: '10', [mk.quote.currencyId]: '10' }),
      ),
    );
    const [a, c, d, e, f, h, y] = m as [Member, Member, Member, Member, Member, Member, Member];
    await placeOk(t.app, c, mk.pair._id, true, '1', '1.5');
    await placeOk(t.app, d, mk.pair._id, true, '1', '1.4');
    await placeOk(t.app, h, mk.pair._id, true, '1', '1.3');
    // Y's sell stop at 1.40 waits before the batch: A's triggered sale at 1.40 triggers it in turn.
    const ystop = { buySide: false, type: 'stop_limit', initialAmount: '1', price: '1.3', stopPrice: '1.4' };
    const yOrder = await placeWithOk(y, mk, ystop);
    const job = (who: Member, buySide: boolean, price: string, type: OrderType = 'limit', stopPrice?: string) => ({
      member: { id: who.id, nickname: who.nickname, role: 'user' as const },
      input: {
        pair: mk.pair._id,
        buySide,
        type,
        initialAmount: parseAmount('1') as Amount,
        price: parseAmount(price) as Amount,
        ...(stopPrice === undefined ? {} : { stopPrice: parseAmount(stopPrice) as Amount }),
      },
    });
    const outcomes = await inTransaction(t.built.database.db, (tx) =>
      placeOrders(
        tx,
        [
          job(a, false, '1.4', 'stop_limit', '1.5'), // waits, then triggered by E's trade at 1.50
          job(e, false, '1.5'), // trades with C at 1.50
          job(f, true, '1.6', 'stop_limit', '1.5'), // placed after the trade at 1.50: not triggered by it
        ],
        new LiveChanges(),
      ),
    );
    const ids = outcomes.map((o) => (o.ok ? o.value.order._id : ''));
    expect(outcomes.map((o) => o.ok && o.value.order.state)).toEqual([5, 3, 5]);
    expect(await orderOf(a, ids[0] as string)).toMatchObject({ state: 3, filledAmount: '1.00', price: '1.40' });
    expect(await orderOf(y, yOrder.order._id)).toMatchObject({ state: 3, filledAmount: '1.00' });
    expect(await orderOf(f, ids[2] as string)).toMatchObject({ state: 5 });
    expect(await balanceOf(t.app, a, mk.quote.currencyId)).toBe('11.4');
    expect(await balanceOf(t.app, y, mk.quote.currencyId)).toBe('11.3');
    expect(await balanceOf(t.app, f, mk.quote.currencyId)).toBe('8.4');
    expect(await bookOf(mk)).toMatchObject({ buys: [], sells: [] });
    await expectSound(mk);
  });

  it('cancels a fill-or-kill stop that cannot fill in full when triggered, its escrow back', async () => {
    const mk = await createMarket(t.app, t.admin);
    const maker = await fundedMember(t.app, t.admin, { [mk.base.currencyId]: '5' });
    await placeOk(t.app, maker, mk.pair._id, false, '1', '2');
    await placeOk(t.app, maker, mk.pair._id, false, '1', '2.5');
    const stopper = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '10' });
    const fok = {
      buySide: true,
      type: 'stop_limit',
      timeInForce: 'FOK',
      initialAmount: '3',
      price: '3',
      stopPrice: '2',
    };
    const stop = await placeWithOk(stopper, mk, fok);
    expect(await balanceOf(t.app, stopper, mk.quote.currencyId)).toBe('1');
    const taker = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '10' });
    await placeOk(t.app, taker, mk.pair._id, true, '1', '2');
    expect(await orderOf(stopper, stop.order._id)).toMatchObject({ state: 2, filledAmount: '0.00' });
    expect(await balanceOf(t.app, stopper, mk.quote.currencyId)).toBe('10');
    await expectSound(mk);
  });

  it('cancel, cancel-all and expiry return an Untriggered order escrow', async () => {
    const mk = await createMarket(t.app, t.admin);
    const me = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '10', [mk.base.currencyId]: '5' });
    const stop = { type: 'stop_limit', initialAmount: '1', price: '2', stopPrice: '3' };
    const one = await placeWithOk(me, mk, { ...stop, buySide: true });
    const res = await cancel(me, one.order._id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().order).toMatchObject({ state: 2 });
    expect(await balanceOf(t.app, me, mk.quote.currencyId)).toBe('10');

    await placeWithOk(me, mk, { ...stop, buySide: true });
    await placeWithOk(me, mk, { ...stop, buySide: false, stopPrice: '1' });
    await placeOk(t.app, me, mk.pair._id, true, '1', '1');
    const all = await call(t.app, me.token, 'POST', '/api/cex/cancelAllOrders', { pair: mk.pair._id });
    expect(all.json()).toEqual({ cancelled: 3, message: '3 open orders cancelled' });
    expect(await balanceOf(t.app, me, mk.quote.currencyId)).toBe('10');
    expect(await balanceOf(t.app, me, mk.base.currencyId)).toBe('5');

    const expiresAt = new Date(Date.now() + 60_000).toISOString();
    const gtd = await placeWithOk(me, mk, { ...stop, buySide: true, expiresAt });
    expect(gtd.order).toMatchObject({ state: 5, expiresAt });
    const later = new Date(Date.now() + 120_000);
    await withLiveChanges(t.app.live.changes, (changes) =>
      withJobLock(t.built.database.db, 'expire-orders', (tx) => expireDueOrders(tx, changes, later)),
    );
    expect(await orderOf(me, gtd.order._id)).toMatchObject({ state: 2 });
    expect(await balanceOf(t.app, me, mk.quote.currencyId)).toBe('10');
    await expectSound(mk);
  });

  it('deleting the pair cancels an Untriggered order with its escrow back', async () => {
    const mk = await createMarket(t.app, t.admin);
    const me = await fundedMember(t.app, t.admin, { [mk.base.currencyId]: '5' });
    const stop = { buySide: false, type: 'stop_limit', initialAmount: '2', price: '1', stopPrice: '1.5' };
    const placed = await placeWithOk(me, mk, stop);
    expect(await balanceOf(t.app, me, mk.base.currencyId)).toBe('3');
    const res = await call(t.app, t.admin.token, 'POST', '/api/cex/deletePair', { pairId: mk.pair._id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ cancelledOrders: 1 });
    expect(await balanceOf(t.app, me, mk.base.currencyId)).toBe('5');
    expect(await ledgerRows(placed.order._id)).toEqual([
      { category: 20, amount: '2', sender_id: me.id, recipient_id: null, escrow: true },
      { category: 21, amount: '2', sender_id: null, recipient_id: me.id, escrow: true },
    ]);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('refuses a stop without its stop price, a bad stop price, or one on another type, and nothing changes', async () => {
    const mk = await createMarket(t.app, t.admin);
    const me = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '10' });
    const order = { buySide: true, initialAmount: '1', price: '2' };
    const refused = async (body: Record<string, unknown>, message: string | RegExp) => {
      const res = await placeWith(me, mk, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(message);
    };
    await refused({ ...order, type: 'stop_limit' }, 'Stop price is required for a stop-limit order');
    await refused({ ...order, type: 'stop_limit', stopPrice: '0' }, /Stop price must be at least/);
    await refused({ ...order, type: 'stop_limit', stopPrice: '-1' }, /Stop price/);
    await refused({ ...order, type: 'stop_limit', stopPrice: '1.005' }, 'Stop price can have at most 2 decimals');
    await refused({ ...order, stopPrice: '1' }, 'Only a stop-limit order takes a stop price');
    await refused({ buySide: true, initialAmount: '1', type: 'stop_limit', stopPrice: '1' }, 'Price is required');
    expect(await ordersOf(t.app, me)).toEqual([]);
    expect(await balanceOf(t.app, me, mk.quote.currencyId)).toBe('10');
    await expectSound(mk);
  });

  it('finds the stops a trade triggers through their index', async () => {
    const plan = await inTransaction(t.built.database.db, async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const res = await tx.execute<{ 'QUERY PLAN': string }>(sql`EXPLAIN SELECT * FROM exchange_orders o
        WHERE o.pair_id = 'aaaaaaaaaaaaaaaaaaaaaaaa' AND o.buy_side AND o.state = 5 AND o.stop_price <= 2`);
      return res.rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('exchange_orders_stops');
  });
});
