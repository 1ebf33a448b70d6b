/**
 * Amounts on the wire are written at their currency's precision: "50.00" at precision 2,
 * "7" at precision 0, in every response that carries money.
 */
import type {
  AuditResponse,
  CurrencyStatsEntry,
  GetOrdersResponse,
  PlaceOrderResponse,
  TransactionsResponse,
  User,
} from '@starlight/shared';
import { describe, expect, it } from 'vitest';
import { createCurrency, fundedMember } from './exchange.helpers.ts';
import { call, expectLedgerBalanced, mint, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();

/** The wire's amount of `currencyId` in a list of balances. */
function amountIn(balances: User['balances'], currencyId: number): string | undefined {
  return balances.find((b) => b.currencyId === currencyId)?.amount;
}

describe('amounts at the currency precision', () => {
  it('balances, transfers, histories, stats and the audit use precision 2 and precision 0', async () => {
    const whole = await createCurrency(t.app, t.admin, 0);
    const a = await registerMember(t.app, 'amt');
    const b = await registerMember(t.app, 'amt');
    await mint(t.app, t.admin, a.nickname, 2, '50');
    await mint(t.app, t.admin, a.nickname, whole.currencyId, '7');

    const me = (await call(t.app, a.token, 'GET', '/api/user/me')).json<{ user: User }>().user;
    expect(amountIn(me.balances, 2)).toBe('50.00');
    expect(amountIn(me.balances, whole.currencyId)).toBe('7');

    const sent = await call(t.app, a.token, 'POST', '/api/bank/p2pTransfer', {
      recipientNickName: b.nickname,
      currencyId: 2,
      amount: '10.5',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(amountIn(sent.json<{ senderUser: User }>().senderUser.balances, 2)).toBe('39.50');

    const sentWhole = await call(t.app, a.token, 'POST', '/api/bank/p2pTransfer', {
      recipientNickName: b.nickname,
      currencyId: whole.currencyId,
      amount: 3,
    });
    expect(sentWhole.statusCode, sentWhole.body).toBe(200);
    expect(amountIn(sentWhole.json<{ senderUser: User }>().senderUser.balances, whole.currencyId)).toBe('4');

    const history = await call(t.app, b.token, 'POST', '/api/bank/transactions', { paging: { limit: 10, page: 1 } });
    expect(history.json<TransactionsResponse>().txs.map((tx) => tx.balance.amount)).toEqual(['3', '10.50']);

    const stats = await call(t.app, t.admin.token, 'POST', '/api/bank/currencyStats', {
      currencyId: whole.currencyId,
    });
    const [entry] = stats.json<{ currencyStats: CurrencyStatsEntry[] }>().currencyStats;
    expect(entry).toMatchObject({ totals: '10', circulating: '7' });
    expect(entry?.categories).toEqual([
      { category: 3, total: '3', count: 1 },
      { category: 10, total: '7', count: 1 },
    ]);

    const audit = (await call(t.app, t.admin.token, 'GET', '/api/bank/audit')).json<AuditResponse>();
    expect(audit.currencies.find((c) => c.currencyId === whole.currencyId)).toMatchObject({
      balances: '7',
      issued: '7',
      removed: '0',
      escrow: '0',
      difference: '0',
    });
    expect(audit.currencies.find((c) => c.currencyId === 2)?.difference).toBe('0.00');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('orders, trades and the book use the buy currency precision for quantities and the sell one for prices', async () => {
    const base = await createCurrency(t.app, t.admin, 0);
    const quote = await createCurrency(t.app, t.admin, 2);
    const pairRes = await call(t.app, t.admin.token, 'POST', '/api/cex/createPair', {
      buyCurrency: base.currencyId,
      sellCurrency: quote.currencyId,
      canBuy: true,
      canSell: true,
    });
    expect(pairRes.statusCode, pairRes.body).toBe(200);
    const pairId = pairRes.json<{ pair: { _id: string } }>().pair._id;
    const seller = await fundedMember(t.app, t.admin, { [base.currencyId]: '5' });
    const buyer = await fundedMember(t.app, t.admin, { [quote.currencyId]: '100' });

    const place = async (who: typeof seller, buySide: boolean, initialAmount: string, price: string) => {
      const res = await call(t.app, who.token, 'POST', '/api/cex/placeOrder', {
        pair: pairId,
        buySide,
        initialAmount,
        price,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<PlaceOrderResponse>();
    };
    const sell = await place(seller, false, '5', '2');
    expect(sell.order).toMatchObject({ initialAmount: '5', filledAmount: '0', price: '2.00' });
    const buy = await place(buyer, true, '2', '2.5');
    expect(buy.order).toMatchObject({ initialAmount: '2', filledAmount: '2', price: '2.50' });
    expect(buy.trades.map((tr) => [tr.price, tr.amount])).toEqual([['2.00', '2']]);

    const book = await call(t.app, undefined, 'POST', '/api/cex/getOrders', { pair: pairId });
    expect(book.json<GetOrdersResponse>().orders.sells.map((o) => [o.initialAmount, o.filledAmount, o.price])).toEqual([
      ['5', '2', '2.00'],
    ]);
    const own = await call(t.app, seller.token, 'GET', '/api/cex/getUserOrders');
    expect(own.json<{ orders: Array<{ filledAmount: string; price: string }> }>().orders[0]).toMatchObject({
      filledAmount: '2',
      price: '2.00',
    });
    const depth = await call(t.app, undefined, 'POST', '/api/cex/getDepth', { pair: pairId });
    expect(depth.json<{ depth: { sells: unknown[] } }>().depth.sells).toEqual([
      { price: '2.00', amount: '3', orders: 1 },
    ]);
    await expectLedgerBalanced(t.app, t.admin);
  });
});
