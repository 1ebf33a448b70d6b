import { describe, expect, it } from 'vitest';
import { createMarket, fundedMember, placeOk } from './exchange.helpers.ts';
import { call, expectLedgerBalanced, useTestApp } from './helpers.ts';

const t = useTestApp();

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
