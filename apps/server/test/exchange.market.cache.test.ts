/**
 * The exchange's public market answers are built once per change of their pair and shared by every
 * viewer (market.cache.ts). What a reader must never notice: the server that took a change
 * answers from it at once; another server on the same database within the live feed's lag; a hidden pair
 * stays hidden from members and visitors whoever asked first.
 */
import type {
  CandlesResponse,
  DepthResponse,
  GetOrdersResponse,
  TradesResponse,
  UserOrdersResponse,
} from '@starlight/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../src/app.ts';
import { createMarket, fundedMember, placeOk } from './exchange.helpers.ts';
import { call, eventually, expectLedgerBalanced, makeApp, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();

/** The ids of a pair's book on `app`, as a visitor reads it. */
async function bookIds(app: BuiltApp['app'], pair: string): Promise<{ buys: string[]; sells: string[] }> {
  const res = await call(app, undefined, 'POST', '/api/cex/getOrders', { pair });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const { orders } = res.json<GetOrdersResponse>();
  return { buys: orders.buys.map((o) => o._id), sells: orders.sells.map((o) => o._id) };
}

describe('cached market answers', () => {
  let b: BuiltApp;
  beforeAll(async () => {
    b = await makeApp();
  });
  afterAll(() => b.app.close());

  it('show a change at once on the server that made it, and soon on the other one', async () => {
    const a = t.app;
    const m = await createMarket(a, t.admin);
    const alice = await fundedMember(a, t.admin, { [m.base.currencyId]: '100', [m.quote.currencyId]: '1000' });
    const bob = await fundedMember(a, t.admin, { [m.base.currencyId]: '100', [m.quote.currencyId]: '1000' });
    // Both servers answer (and keep) the empty book first.
    expect(await bookIds(a, m.pair._id)).toEqual({ buys: [], sells: [] });
    expect(await bookIds(b.app, m.pair._id)).toEqual({ buys: [], sells: [] });

    const buy = await placeOk(a, alice, m.pair._id, true, '2', '10');
    expect(await bookIds(a, m.pair._id)).toEqual({ buys: [buy.order._id], sells: [] });
    const onB = await eventually(
      () => bookIds(b.app, m.pair._id),
      (v) => v.buys.length === 1,
    );
    expect(onB).toEqual({ buys: [buy.order._id], sells: [] });

    // A change made on B shows on B at once: the book, the depth, the trades and the candles.
    const readAll = async (app: BuiltApp['app']) => {
      const [depth, trades, candles] = await Promise.all([
        call(app, undefined, 'POST', '/api/cex/getDepth', { pair: m.pair._id }),
        call(app, undefined, 'POST', '/api/cex/getTrades', { pair: m.pair._id }),
        call(app, undefined, 'POST', '/api/cex/getCandles', { pair: m.pair._id, interval: '1h' }),
      ]);
      return {
        depth: depth.json<DepthResponse>().depth,
        trades: trades.json<TradesResponse>().trades,
        candles: candles.json<CandlesResponse>().candles,
      };
    };
    const before = await readAll(b.app);
    expect(before.depth.buys).toEqual([{ price: '10.00', amount: '2.00', orders: 1 }]);
    expect(before.trades).toEqual([]);
    const sell = await placeOk(b.app, bob, m.pair._id, false, '1', '10');
    expect(sell.order.state).toBe(3);
    const after = await readAll(b.app);
    expect(after.depth.buys).toEqual([{ price: '10.00', amount: '1.00', orders: 1 }]);
    expect(after.trades.map((x) => [x.price, x.amount])).toEqual([['10.00', '1.00']]);
    expect(after.candles.at(-1)).toMatchObject({ close: '10.00', volume: '1.00' });
    expect(await bookIds(b.app, m.pair._id)).toEqual({ buys: [buy.order._id], sells: [] });
    const onA = await eventually(
      () => call(a, undefined, 'POST', '/api/cex/getTrades', { pair: m.pair._id }),
      (r) => r.json<TradesResponse>().trades.length === 1,
    );
    expect(onA.json<TradesResponse>().trades.map((x) => x.amount)).toEqual(['1.00']);
    await expectLedgerBalanced(a, t.admin);
  });

  it('show a member a fill of their resting order at once, and soon on the other server', async () => {
    const a = t.app;
    const m = await createMarket(a, t.admin);
    const alice = await fundedMember(a, t.admin, { [m.quote.currencyId]: '1000' });
    const bob = await fundedMember(a, t.admin, { [m.base.currencyId]: '100' });
    const own = async (app: BuiltApp['app'], member: typeof alice, pair?: string) => {
      const res = await call(app, member.token, 'GET', `/api/cex/getUserOrders${pair ? `?pair=${pair}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<UserOrdersResponse>().orders.map((o) => [o._id, o.filledAmount, o.state]);
    };
    const buy = await placeOk(a, alice, m.pair._id, true, '2', '10');
    // Both servers answer (and keep) alice's orders, all pairs and this pair; bob's are his own.
    expect(await own(a, alice)).toEqual([[buy.order._id, '0.00', 1]]);
    expect(await own(b.app, alice, m.pair._id)).toEqual([[buy.order._id, '0.00', 1]]);
    expect(await own(a, bob)).toEqual([]);

    // Bob's sell on A fills half of alice's resting buy: A shows it to her at once, B soon.
    const sell = await placeOk(a, bob, m.pair._id, false, '1', '10');
    expect(await own(a, alice)).toEqual([[buy.order._id, '1.00', 1]]);
    expect(await own(a, alice, m.pair._id)).toEqual([[buy.order._id, '1.00', 1]]);
    expect(await own(a, bob)).toEqual([[sell.order._id, '1.00', 3]]);
    const onB = await eventually(
      () => own(b.app, alice, m.pair._id),
      (v) => v[0]?.[1] === '1.00',
    );
    expect(onB).toEqual([[buy.order._id, '1.00', 1]]);

    // Alice cancels on B: B shows it at once.
    const cancel = await call(b.app, alice.token, 'POST', '/api/cex/cancelOrder', { orderId: buy.order._id });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const [, , state] = (await own(b.app, alice, m.pair._id))[0] ?? [];
    expect(state).not.toBe(1);
    await expectLedgerBalanced(a, t.admin);
  });

  it('keep a hidden pair from members and visitors, whoever read it first', async () => {
    const a = t.app;
    const m = await createMarket(a, t.admin, { visible: false });
    const member = await registerMember(a, 'peek');
    const book = (token?: string) => call(a, token, 'POST', '/api/cex/getOrders', { pair: m.pair._id });
    // The admin's read is kept; the member and the visitor still get "not found".
    expect((await book(t.admin.token)).statusCode).toBe(200);
    for (const token of [member.token, undefined]) {
      const res = await book(token);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Pair not found');
      const depth = await call(a, token, 'POST', '/api/cex/getDepth', { pair: m.pair._id });
      expect(depth.statusCode).toBe(404);
    }
    // Shown: at once for everyone; hidden again: at once hidden.
    const show = await call(a, t.admin.token, 'POST', '/api/cex/modifyPair', { pairId: m.pair._id, visible: true });
    expect(show.statusCode, show.body).toBe(200);
    expect((await book()).statusCode).toBe(200);
    await call(a, t.admin.token, 'POST', '/api/cex/modifyPair', { pairId: m.pair._id, visible: false });
    expect((await book(member.token)).statusCode).toBe(404);
    // A pair that does not exist is not found, and one made a moment later is found.
    expect((await call(a, undefined, 'POST', '/api/cex/getOrders', { pair: 'e'.repeat(24) })).statusCode).toBe(404);
    const later = await createMarket(a, t.admin);
    expect(await bookIds(a, later.pair._id)).toEqual({ buys: [], sells: [] });
  });
});
