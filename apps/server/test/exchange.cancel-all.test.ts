/**
 * Cancelling all open orders at once (DESIGN §11.4 cancelAllOrders): everywhere or on one pair, each
 * escrow back (category 21) in one transaction, another member's orders untouched, a retry cancelling
 * nothing twice, API keys need the trade scope; the ledger stays balanced with no negative balance.
 */
import type { CancelAllOrdersResponse, CreateApiKeyResponse } from '@starlight/shared';
import { describe, expect, it } from 'vitest';
import {
  createMarket,
  exchangeCalls,
  expectBookConsistent,
  fundedMember,
  ordersOf,
  placeOk,
} from './exchange.helpers.ts';
import { balanceOf, call, expectLedgerBalanced, type Member, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();
const { ledgerRows } = exchangeCalls(t);

function cancelAll(who: Member | undefined, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return call(t.app, who?.token, 'POST', '/api/cex/cancelAllOrders', body, headers);
}

async function cancelAllOk(who: Member, body: Record<string, unknown> = {}): Promise<CancelAllOrdersResponse> {
  const res = await cancelAll(who, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<CancelAllOrdersResponse>();
}

/** Two markets and a member with a buy and a sell resting on each, plus another member's order on the first. */
async function twoMarkets() {
  const a = await createMarket(t.app, t.admin);
  const b = await createMarket(t.app, t.admin);
  const me = await fundedMember(t.app, t.admin, {
    [a.base.currencyId]: '10',
    [a.quote.currencyId]: '10',
    [b.base.currencyId]: '10',
    [b.quote.currencyId]: '10',
  });
  const other = await fundedMember(t.app, t.admin, { [a.quote.currencyId]: '10' });
  const mine = [
    await placeOk(t.app, me, a.pair._id, true, '2', '1.5'), // escrows 3.00 quote of a
    await placeOk(t.app, me, a.pair._id, false, '4', '3'), // escrows 4.00 base of a
    await placeOk(t.app, me, b.pair._id, true, '1', '2.25'), // escrows 2.25 quote of b
    await placeOk(t.app, me, b.pair._id, false, '1.5', '4'), // escrows 1.50 base of b
  ];
  const theirs = await placeOk(t.app, other, a.pair._id, true, '1', '1.2');
  return { a, b, me, other, mine, theirs };
}

describe('cancelAllOrders', () => {
  it('cancels every open order of the member on every pair, returning each escrow once', async () => {
    const { a, b, me, other, mine, theirs } = await twoMarkets();
    expect(await balanceOf(t.app, me, a.quote.currencyId)).toBe('7');

    expect(await cancelAllOk(me)).toEqual({ cancelled: 4, message: '4 open orders cancelled' });
    const orders = await ordersOf(t.app, me);
    expect(orders.map((o) => o.state)).toEqual([2, 2, 2, 2]);
    for (const [currency, amount] of [
      [a.base.currencyId, '10'],
      [a.quote.currencyId, '10'],
      [b.base.currencyId, '10'],
      [b.quote.currencyId, '10'],
    ] as const)
      expect(await balanceOf(t.app, me, currency)).toBe(amount);
    expect(await ledgerRows(mine[2]?.order._id ?? '')).toEqual([
      { category: 20, amount: '2.25', sender_id: me.id, recipient_id: null, escrow: true },
      { category: 21, amount: '2.25', sender_id: null, recipient_id: me.id, escrow: true },
    ]);

    // The other member's order rests untouched, escrow and all.
    expect((await ordersOf(t.app, other)).map((o) => [o._id, o.state])).toEqual([[theirs.order._id, 1]]);
    expect(await balanceOf(t.app, other, a.quote.currencyId)).toBe('8.8');

    // A retry cancels nothing twice: no new rows, the same balances.
    expect(await cancelAllOk(me)).toEqual({ cancelled: 0, message: 'No open orders to cancel' });
    expect((await ledgerRows(mine[0]?.order._id ?? '')).length).toBe(2);
    expect(await balanceOf(t.app, me, a.quote.currencyId)).toBe('10');

    await expectBookConsistent(t.built, a.pair._id, 2);
    await expectBookConsistent(t.built, b.pair._id, 2);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('cancels only the orders of the named pair', async () => {
    const { a, b, me, mine } = await twoMarkets();
    expect(await cancelAllOk(me, { pair: b.pair._id })).toEqual({ cancelled: 2, message: '2 open orders cancelled' });
    const state = new Map((await ordersOf(t.app, me)).map((o) => [o._id, o.state]));
    expect(mine.map((m) => state.get(m.order._id))).toEqual([1, 1, 2, 2]);
    expect(await balanceOf(t.app, me, b.quote.currencyId)).toBe('10');
    expect(await balanceOf(t.app, me, b.base.currencyId)).toBe('10');
    expect(await balanceOf(t.app, me, a.quote.currencyId)).toBe('7');
    expect(await balanceOf(t.app, me, a.base.currencyId)).toBe('6');

    // Partly filled: only the unfilled rest comes back.
    const buyer = await fundedMember(t.app, t.admin, { [a.quote.currencyId]: '10' });
    await placeOk(t.app, buyer, a.pair._id, true, '1', '3'); // takes 1 of my 4 at 3.00
    expect(await cancelAllOk(me, { pair: a.pair._id })).toEqual({ cancelled: 2, message: '2 open orders cancelled' });
    expect(await balanceOf(t.app, me, a.base.currencyId)).toBe('9');
    expect(await balanceOf(t.app, me, a.quote.currencyId)).toBe('13');
    const sold = (await ordersOf(t.app, me)).find((o) => o._id === mine[1]?.order._id);
    expect(sold).toMatchObject({ state: 2, filledAmount: '1.00' });

    await expectBookConsistent(t.built, a.pair._id, 2);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('answers nothing to cancel when nothing is open, and one order in the singular', async () => {
    const m = await createMarket(t.app, t.admin);
    const idle = await registerMember(t.app, 'idle');
    expect(await cancelAllOk(idle)).toEqual({ cancelled: 0, message: 'No open orders to cancel' });
    expect(await cancelAllOk(idle, { pair: m.pair._id })).toEqual({
      cancelled: 0,
      message: 'No open orders to cancel',
    });
    const one = await fundedMember(t.app, t.admin, { [m.quote.currencyId]: '5' });
    await placeOk(t.app, one, m.pair._id, true, '1', '1');
    expect(await cancelAllOk(one, { pair: m.pair._id })).toEqual({ cancelled: 1, message: '1 open order cancelled' });
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('refuses visitors, an unknown pair and unknown fields, changing nothing', async () => {
    const { me } = await twoMarkets();
    expect((await cancelAll(undefined)).statusCode).toBe(401);
    const unknown = await cancelAll(me, { pair: 'ffffffffffffffffffffffff' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Pair not found');
    const bad = await cancelAll(me, { pair: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('"pair" contains an invalid value');
    expect((await cancelAll(me, { everything: true })).statusCode).toBe(400);
    expect((await ordersOf(t.app, me)).every((o) => o.state === 1)).toBe(true);
    // An admin cancels only their own orders through it, never a member's.
    expect(await cancelAllOk(t.admin)).toEqual({ cancelled: 0, message: 'No open orders to cancel' });
    expect((await ordersOf(t.app, me)).every((o) => o.state === 1)).toBe(true);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('takes an API key with the trade scope, and refuses one without it', async () => {
    const { me } = await twoMarkets();
    const key = async (scopes: string[]) => {
      const res = await call(t.app, me.token, 'POST', '/api/user/apiKeys/create', { name: scopes.join('+'), scopes });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<CreateApiKeyResponse>().secret;
    };
    const readOnly = await cancelAll(undefined, {}, { 'x-api-key': await key(['read']) });
    expect(readOnly.statusCode).toBe(403);
    expect(readOnly.json().message).toBe('This API key does not allow trade');
    expect((await ordersOf(t.app, me)).every((o) => o.state === 1)).toBe(true);

    const trading = await cancelAll(undefined, {}, { 'x-api-key': await key(['trade']) });
    expect(trading.statusCode, trading.body).toBe(200);
    expect(trading.json()).toEqual({ cancelled: 4, message: '4 open orders cancelled' });
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('under an Idempotency-Key a replay answers the first result and moves nothing', async () => {
    const { a, me } = await twoMarkets();
    const headers = { 'idempotency-key': `cancel-all-${me.id}` };
    const first = await cancelAll(me, { pair: a.pair._id }, headers);
    expect(first.statusCode, first.body).toBe(200);
    const again = await cancelAll(me, { pair: a.pair._id }, headers);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await balanceOf(t.app, me, a.quote.currencyId)).toBe('10');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('two cancels at once refund each order once', async () => {
    const { a, me } = await twoMarkets();
    const [x, y] = await Promise.all([cancelAll(me), cancelAll(me)]);
    const counts = [x.json<CancelAllOrdersResponse>().cancelled, y.json<CancelAllOrdersResponse>().cancelled];
    expect(counts.reduce((s, n) => s + n, 0)).toBe(4);
    expect(await balanceOf(t.app, me, a.quote.currencyId)).toBe('10');
    expect(await balanceOf(t.app, me, a.base.currencyId)).toBe('10');
    await expectLedgerBalanced(t.app, t.admin);
  });
});
