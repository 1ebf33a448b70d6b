/** The exchange's market data through the API (SPEC §7 Exchange, DESIGN §5): book, own orders, trades, candles, depth. */
import type { CandlesResponse, DepthResponse, GetOrdersResponse, Order, TradesResponse } from '@starlight/shared';
import { describe, expect, it } from 'vitest';
import { createMarket, exchangeCalls, fundedMember, placeOk } from './exchange.helpers.ts';
import { call, useTestApp } from './helpers.ts';

const t = useTestApp();
const { cancel } = exchangeCalls(t);

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
      ['12.00', '1.00', true],
      ['11.00', '3.00', true],
      ['10.00', '1.00', true],
    ]);
    const limited = await call(t.app, undefined, 'POST', '/api/cex/getTrades', { pair: mk.pair._id, limit: 1 });
    expect(limited.json<TradesResponse>().trades).toHaveLength(1);

    const candles = await call(t.app, undefined, 'POST', '/api/cex/getCandles', { pair: mk.pair._id, interval: '1d' });
    expect(candles.statusCode).toBe(200);
    const cBody = candles.json<CandlesResponse>();
    expect(cBody.candles.map(({ time: _t, ...c }) => c)).toEqual([
      { open: '10.00', high: '12.00', low: '10.00', close: '12.00', volume: '5.00' },
    ]);
    expect(cBody.candles[0]?.time).toMatch(/T00:00:00\.000Z$/);
    const bad = await call(t.app, undefined, 'POST', '/api/cex/getCandles', { pair: mk.pair._id, interval: '2m' });
    expect(bad.statusCode).toBe(400);

    const depth = await call(t.app, undefined, 'POST', '/api/cex/getDepth', { pair: mk.pair._id });
    expect(depth.statusCode).toBe(200);
    const d = depth.json<DepthResponse>().depth;
    expect(d.sells).toEqual([
      { price: '12.00', amount: '1.00', orders: 1 },
      { price: '13.00', amount: '9.00', orders: 2 },
    ]);
    expect(d.buys).toEqual([{ price: '9.00', amount: '2.00', orders: 1 }]);
    const one = await call(t.app, undefined, 'POST', '/api/cex/getDepth', { pair: mk.pair._id, levels: 1 });
    expect(one.json<DepthResponse>().depth.sells).toHaveLength(1);
    for (const url of ['/api/cex/getTrades', '/api/cex/getDepth']) {
      expect((await call(t.app, undefined, 'POST', url, { pair: 'e'.repeat(24) })).statusCode).toBe(404);
    }
  });
});
