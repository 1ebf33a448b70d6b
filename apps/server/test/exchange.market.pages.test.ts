/**
 * The Quantum Hub's reads at any size (DESIGN §5, §3 paging): the book by price level (getDepth) against
 * the open orders it sums, capped a side and best first, for a visitor too; a member's own orders a page
 * at a time by state (getMyOrdersPage); a side of the book a page at a time (getBookPage).
 */
import {
  type DepthResponse,
  fromNumeric,
  type GetOrdersResponse,
  type Order,
  type OrdersPageResponse,
  toDecimalString,
} from '@starlight/shared';
import { describe, expect, it } from 'vitest';
import { createMarket, exchangeCalls, fundedMember, placeOk } from './exchange.helpers.ts';
import { call, useTestApp } from './helpers.ts';

const t = useTestApp();
const { cancel } = exchangeCalls(t);

/** The open orders of one side summed per price, in the side's order, as `{price, amount, orders}`. */
function levelsOf(orders: Order[]) {
  const byPrice = new Map<string, { amount: bigint; orders: number }>();
  for (const o of orders) {
    const key = toDecimalString(fromNumeric(o.price));
    const l = byPrice.get(key) ?? { amount: 0n, orders: 0 };
    l.amount += fromNumeric(o.initialAmount) - fromNumeric(o.filledAmount);
    l.orders += 1;
    byPrice.set(key, l);
  }
  return [...byPrice].map(([price, l]) => ({ price, amount: toDecimalString(l.amount as never), orders: l.orders }));
}

const asNumbers = (levels: Array<{ price: string; amount: string; orders: number }>) =>
  levels.map((l) => ({
    price: toDecimalString(fromNumeric(l.price)),
    amount: toDecimalString(fromNumeric(l.amount)),
    orders: l.orders,
  }));

describe('the book by price level and paged orders', () => {
  it('getDepth sums the open orders per price, best first, at most `levels` a side, for a visitor', async () => {
    const mk = await createMarket(t.app, t.admin);
    const maker = await fundedMember(t.app, t.admin, {
      [mk.base.currencyId]: '10000',
      [mk.quote.currencyId]: '100000',
    });
    const taker = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '1000' });
    // 24 sell levels (100..123) and 24 buy levels (1..24), two orders at every third price.
    for (let i = 0; i < 24; i++) {
      await placeOk(t.app, maker, mk.pair._id, false, String(i + 1), String(100 + i));
      await placeOk(t.app, maker, mk.pair._id, true, String(i + 2), String(24 - i));
      if (i % 3 === 0) {
        await placeOk(t.app, maker, mk.pair._id, false, '0.5', String(100 + i));
        await placeOk(t.app, maker, mk.pair._id, true, '0.25', String(24 - i));
      }
    }
    // A partial fill of the best sell (100: 1 + 0.5 rest): the level holds what is left.
    await placeOk(t.app, taker, mk.pair._id, true, '0.75', '100');
    // A cancelled order leaves its level.
    const gone = await placeOk(t.app, maker, mk.pair._id, false, '7', '99.5');
    expect((await cancel(maker, gone.order._id)).statusCode).toBe(200);

    const book = (
      await call(t.app, undefined, 'POST', '/api/cex/getOrders', { pair: mk.pair._id })
    ).json<GetOrdersResponse>().orders;
    const res = await call(t.app, undefined, 'POST', '/api/cex/getDepth', { pair: mk.pair._id, levels: 20 });
    expect(res.statusCode).toBe(200);
    const { depth, message } = res.json<DepthResponse>();
    expect(message).toBe('Got 40 price levels');
    expect(depth.sells).toHaveLength(20);
    expect(depth.buys).toHaveLength(20);
    expect(asNumbers(depth.sells)).toEqual(levelsOf(book.sells).slice(0, 20));
    expect(asNumbers(depth.buys)).toEqual(levelsOf(book.buys).slice(0, 20));
    // Best first: sells from the lowest price up, buys from the highest down.
    expect(depth.sells[0]).toMatchObject({ price: '100.00', amount: '0.75', orders: 2 });
    expect(depth.sells[19]?.price).toBe('119.00');
    expect(depth.buys[0]).toMatchObject({ price: '24.00', amount: '2.25', orders: 2 });
    expect(depth.buys[19]?.price).toBe('5.00');

    // Fewer levels than asked: all of them.
    const all = (
      await call(t.app, undefined, 'POST', '/api/cex/getDepth', { pair: mk.pair._id, levels: 500 })
    ).json<DepthResponse>().depth;
    expect(all.sells).toHaveLength(24);
    expect(asNumbers(all.buys)).toEqual(levelsOf(book.buys));
  });

  it('getMyOrdersPage pages a member’s own orders of one state, newest first; never another’s', async () => {
    const mk = await createMarket(t.app, t.admin);
    const other = await createMarket(t.app, t.admin);
    const a = await fundedMember(t.app, t.admin, {
      [mk.quote.currencyId]: '1000',
      [other.quote.currencyId]: '1000',
    });
    const b = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '1000' });
    const open: string[] = [];
    for (let i = 1; i <= 12; i++) open.push((await placeOk(t.app, a, mk.pair._id, true, '1', String(i))).order._id);
    const cancelled: string[] = [];
    for (const id of open.splice(0, 3)) {
      expect((await cancel(a, id)).statusCode).toBe(200);
      cancelled.push(id);
    }
    const elsewhere = (await placeOk(t.app, a, other.pair._id, true, '1', '1')).order._id;
    await placeOk(t.app, b, mk.pair._id, true, '1', '1');

    const page = async (who: typeof a | undefined, body: Record<string, unknown>) => {
      const res = await call(t.app, who?.token, 'POST', '/api/cex/getMyOrdersPage', body);
      return { status: res.statusCode, body: res.json<OrdersPageResponse>() };
    };
    const newestFirst = [...open].reverse();
    const p1 = await page(a, { state: 1, pair: mk.pair._id, paging: { limit: 5, page: 1 } });
    expect(p1.status).toBe(200);
    expect(p1.body.orders.map((o) => o._id)).toEqual(newestFirst.slice(0, 5));
    expect(p1.body).toMatchObject({ total: 9, totalCapped: false, message: 'Got 5 Orders' });
    const p2 = await page(a, { state: 1, pair: mk.pair._id, paging: { limit: 5, page: 2 } });
    expect(p2.body.orders.map((o) => o._id)).toEqual(newestFirst.slice(5));
    // Every pair: the other pair's order is the newest.
    const everyPair = await page(a, { state: 1, paging: { limit: 5, page: 1 } });
    expect(everyPair.body.orders[0]?._id).toBe(elsewhere);
    expect(everyPair.body.total).toBe(10);
    const gone = await page(a, { state: 2, paging: { limit: 10, page: 1 } });
    expect(gone.body.orders.map((o) => o._id)).toEqual([...cancelled].reverse());
    expect(gone.body.orders.every((o) => o.state === 2)).toBe(true);
    expect((await page(a, { state: 3, paging: { limit: 10, page: 1 } })).body).toMatchObject({ orders: [], total: 0 });

    // b sees b's one order only; a visitor is refused; a bad state or page size is a 400.
    const theirs = await page(b, { state: 1, paging: { limit: 10, page: 1 } });
    expect(theirs.body.total).toBe(1);
    expect(theirs.body.orders.some((o) => open.includes(o._id))).toBe(false);
    expect((await page(undefined, { state: 1, paging: { limit: 10, page: 1 } })).status).toBe(401);
    expect((await page(a, { state: 4, paging: { limit: 10, page: 1 } })).status).toBe(400);
    expect((await page(a, { state: 1, paging: { limit: 500, page: 1 } })).status).toBe(400);
  });

  it('getBookPage pages one side of the book in price-time priority, for a visitor', async () => {
    const mk = await createMarket(t.app, t.admin);
    const maker = await fundedMember(t.app, t.admin, { [mk.base.currencyId]: '1000' });
    for (let i = 0; i < 12; i++) await placeOk(t.app, maker, mk.pair._id, false, '1', String(50 - (i % 6)));
    const book = (await call(t.app, undefined, 'POST', '/api/cex/getOrders', { pair: mk.pair._id })).json<{
      orders: { sells: Order[] };
    }>().orders;
    const page2 = await call(t.app, undefined, 'POST', '/api/cex/getBookPage', {
      pair: mk.pair._id,
      buySide: false,
      paging: { limit: 5, page: 2 },
    });
    expect(page2.statusCode).toBe(200);
    const body = page2.json<OrdersPageResponse>();
    expect(body.orders.map((o) => o._id)).toEqual(book.sells.slice(5, 10).map((o) => o._id));
    expect(body).toMatchObject({ total: 12, totalCapped: false });
    const buys = await call(t.app, undefined, 'POST', '/api/cex/getBookPage', {
      pair: mk.pair._id,
      buySide: true,
      paging: { limit: 5, page: 1 },
    });
    expect(buys.json<OrdersPageResponse>()).toMatchObject({ orders: [], total: 0 });
    const unknown = await call(t.app, undefined, 'POST', '/api/cex/getBookPage', {
      pair: 'c'.repeat(24),
      buySide: true,
      paging: { limit: 5, page: 1 },
    });
    expect(unknown.statusCode).toBe(404);
  });
});
