/**
 * Self-trade prevention through the API (DESIGN §5, ARCHITECTURE "The exchange"; policy cancel oldest): a
 * member's order never trades with their own resting order; that order is cancelled (state 2, its escrow
 * back with category 21) and matching goes on against the others. No fee on a self-trade, the member's
 * orders reach their socket, and the ledger and book stay consistent.
 */
import {
  type Amount,
  type GetOrdersResponse,
  type Order,
  type PlaceOrderResponse,
  parseAmount,
} from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../src/db/transaction.ts';
import { LiveChanges } from '../src/lib/live-changes.ts';
import { placeOrders } from '../src/modules/exchange/orders.service.ts';
import {
  createMarket,
  exchangeCalls,
  expectBookConsistent,
  fundedMember,
  ordersOf,
  placeOk,
} from './exchange.helpers.ts';
import { balanceOf, call, expectLedgerBalanced, type Member, registerMember, useTestApp } from './helpers.ts';
import { LiveSocket } from './live-socket.ts';

const t = useTestApp();
const { ledgerRows } = exchangeCalls(t);

beforeAll(async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});

describe('self-trade prevention (cancel oldest)', () => {
  it('cancels the member’s resting buy, fills the other member behind it, pays no fee on a self-trade', async () => {
    const collector = await registerMember(t.app, 'fee');
    const m = await createMarket(t.app, t.admin, { fee: '0.01', feeCollector: collector.nickname });
    const [base, quote] = [m.base.currencyId, m.quote.currencyId];
    const me = await fundedMember(t.app, t.admin, { [base]: '5', [quote]: '10' });
    const bob = await fundedMember(t.app, t.admin, { [quote]: '10' });
    const carol = await fundedMember(t.app, t.admin, { [quote]: '10' });
    const socket = await LiveSocket.open(t.app);
    socket.send({ type: 'auth', token: me.token });
    await socket.until((ms) => ms.some((x) => x.type === 'orders'));

    const mine = await placeOk(t.app, me, m.pair._id, true, '2', '2'); // escrows 4.00
    await placeOk(t.app, bob, m.pair._id, true, '1', '2'); // same price, behind mine
    await placeOk(t.app, carol, m.pair._id, true, '1', '1'); // below the sell's limit
    const sell = await placeOk(t.app, me, m.pair._id, false, '3', '1.5');

    const note =
      `Placed a Sell Order of 3.00 ${m.base.ticker} at 1.50 ${m.quote.ticker}; 1.00 ${m.base.ticker} filled at once; ` +
      `your resting buy order at 2.00 ${m.quote.ticker} was cancelled to prevent a self-trade`;
    expect(sell.message).toBe(note);
    expect(sell.tx).toEqual({ note });
    // One trade, with Bob at his price; the 2 left rest at 1.50 (Carol's 1.00 does not cross).
    expect(sell.trades.map((x) => [x.price, x.amount, x.buySide])).toEqual([['2.00', '1.00', false]]);
    expect(sell.order).toMatchObject({ state: 1, filledAmount: '1.00', initialAmount: '3.00' });

    // My buy: Cancelled, nothing filled, its 4.00 escrow back in the same transaction (category 21).
    const myOrders = await ordersOf(t.app, me);
    expect(myOrders.find((o) => o._id === mine.order._id)).toMatchObject({ state: 2, filledAmount: '0.00' });
    expect(await ledgerRows(mine.order._id)).toEqual([
      { category: 20, amount: '4', sender_id: me.id, recipient_id: null, escrow: true },
      { category: 21, amount: '4', sender_id: null, recipient_id: me.id, escrow: true },
    ]);
    // The trades reference Bob's order, never mine on both sides.
    const trades = await t.built.database.db.execute<{ n: string }>(
      sql`SELECT count(*)::text AS n FROM exchange_trades WHERE buy_order_id = ${mine.order._id}`,
    );
    expect(trades.rows[0]?.n).toBe('0');

    // Balances: 10 - 4 + 4 (refund) + 2.00 (sold 1 at 2.00) - 0.02 fee; base 5 - 3 escrowed.
    expect(await balanceOf(t.app, me, quote)).toBe('11.98');
    expect(await balanceOf(t.app, me, base)).toBe('2');
    expect(await balanceOf(t.app, bob, base)).toBe('0.99');
    expect(await balanceOf(t.app, bob, quote)).toBe('8');
    expect(await balanceOf(t.app, carol, quote)).toBe('9');
    // The collector has only the fees of the trade with Bob.
    expect(await balanceOf(t.app, collector, base)).toBe('0.01');
    expect(await balanceOf(t.app, collector, quote)).toBe('0.02');

    const book = await call(t.app, undefined, 'POST', '/api/cex/getOrders', { pair: m.pair._id });
    const { orders } = book.json<GetOrdersResponse>();
    expect(orders.buys.map((o) => [o.price, o.initialAmount, o.filledAmount])).toEqual([['1.00', '1.00', '0.00']]);
    expect(orders.sells.map((o) => [o.price, o.initialAmount, o.filledAmount])).toEqual([['1.50', '3.00', '1.00']]);

    // My socket hears it: the buy Cancelled, the sell open.
    const stateOf = (id: string) => socket.last('orders')?.orders.find((o: Order) => o._id === id)?.state;
    await socket.until(() => stateOf(mine.order._id) === 2 && stateOf(sell.order._id) === 1);
    socket.close();

    await expectBookConsistent(t.built, m.pair._id, m.quote.precision);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('an order that meets only its owner’s orders trades nothing and rests; no fee at all', async () => {
    const collector = await registerMember(t.app, 'fee');
    const m = await createMarket(t.app, t.admin, { fee: '0.01', feeCollector: collector.nickname });
    const [base, quote] = [m.base.currencyId, m.quote.currencyId];
    const me = await fundedMember(t.app, t.admin, { [base]: '5', [quote]: '10' });
    const s1 = await placeOk(t.app, me, m.pair._id, false, '1', '1');
    const s2 = await placeOk(t.app, me, m.pair._id, false, '1', '1.2');
    const s3 = await placeOk(t.app, me, m.pair._id, false, '1', '3'); // beyond the buy's limit
    const buy = await placeOk(t.app, me, m.pair._id, true, '2', '1.5');
    expect(buy.trades).toEqual([]);
    expect(buy.order).toMatchObject({ state: 1, filledAmount: '0.00' });
    expect(buy.message).toBe(
      `Placed a buy order of 2.00 ${m.base.ticker} at 1.50 ${m.quote.ticker}; ` +
        `your 2 resting sell orders at 1.00 ${m.quote.ticker}, 1.20 ${m.quote.ticker} were cancelled to prevent a self-trade`,
    );
    const states = new Map((await ordersOf(t.app, me)).map((o) => [o._id, o.state]));
    expect([s1, s2, s3, buy].map((o) => states.get(o.order._id))).toEqual([2, 2, 1, 1]);
    // Base: 5 - 3 escrowed + 2 returned; quote: 10 - 3.00 escrowed for the buy.
    expect(await balanceOf(t.app, me, base)).toBe('4');
    expect(await balanceOf(t.app, me, quote)).toBe('7');
    expect(await balanceOf(t.app, collector, base)).toBe('0');
    expect(await balanceOf(t.app, collector, quote)).toBe('0');
    await expectBookConsistent(t.built, m.pair._id, m.quote.precision);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('reaches past a large own order to the other member behind it (the book is never left crossed)', async () => {
    const m = await createMarket(t.app, t.admin);
    const [base, quote] = [m.base.currencyId, m.quote.currencyId];
    const me = await fundedMember(t.app, t.admin, { [base]: '5', [quote]: '100' });
    const bob = await fundedMember(t.app, t.admin, { [quote]: '10' });
    const mine = await placeOk(t.app, me, m.pair._id, true, '40', '2');
    await placeOk(t.app, bob, m.pair._id, true, '1', '2');
    // Reading only as much of the book as the sell's quantity would stop at my 40 and miss Bob.
    const sell = await placeOk(t.app, me, m.pair._id, false, '1', '2');
    expect(sell.order).toMatchObject({ state: 3, filledAmount: '1.00' });
    expect(sell.trades.map((x) => [x.price, x.amount])).toEqual([['2.00', '1.00']]);
    const states = new Map((await ordersOf(t.app, me)).map((o) => [o._id, o.state]));
    expect(states.get(mine.order._id)).toBe(2);
    expect(await balanceOf(t.app, me, quote)).toBe('102');
    expect(await balanceOf(t.app, bob, base)).toBe('1');
    await expectBookConsistent(t.built, m.pair._id, m.quote.precision);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('in one batch, a member’s later order cancels their earlier one of the same batch', async () => {
    const m = await createMarket(t.app, t.admin);
    const [base, quote] = [m.base.currencyId, m.quote.currencyId];
    const me = await fundedMember(t.app, t.admin, { [base]: '5', [quote]: '10' });
    const bob = await fundedMember(t.app, t.admin, { [quote]: '10' });
    const job = (who: Member, buySide: boolean, qty: string, price: string) => ({
      member: { id: who.id, nickname: who.nickname, role: 'user' as const },
      input: {
        pair: m.pair._id,
        buySide,
        initialAmount: parseAmount(qty) as Amount,
        price: parseAmount(price) as Amount,
      },
    });
    const outcomes = await inTransaction(t.built.database.db, (tx) =>
      placeOrders(
        tx,
        [job(me, true, '2', '2'), job(bob, true, '1', '1.5'), job(me, false, '2', '1.5')],
        new LiveChanges(),
      ),
    );
    const answers = outcomes.map((o) => (o.ok ? o.value : null)) as PlaceOrderResponse[];
    expect(answers.every((a) => a !== null)).toBe(true);
    const [myBuy, , mySell] = answers as [PlaceOrderResponse, PlaceOrderResponse, PlaceOrderResponse];
    expect(mySell.message).toContain(`your resting buy order at 2.00 ${m.quote.ticker} was cancelled`);
    expect(mySell.trades.map((x) => [x.price, x.amount])).toEqual([['1.50', '1.00']]);
    const states = new Map((await ordersOf(t.app, me)).map((o) => [o._id, [o.state, o.filledAmount]]));
    expect(states.get(myBuy.order._id)).toEqual([2, '0.00']);
    expect(states.get(mySell.order._id)).toEqual([1, '1.00']);
    expect(await ledgerRows(myBuy.order._id)).toEqual([
      { category: 20, amount: '4', sender_id: me.id, recipient_id: null, escrow: true },
      { category: 21, amount: '4', sender_id: null, recipient_id: me.id, escrow: true },
    ]);
    expect(await balanceOf(t.app, me, quote)).toBe('11.5');
    expect(await balanceOf(t.app, me, base)).toBe('3');
    await expectBookConsistent(t.built, m.pair._id, m.quote.precision);
    await expectLedgerBalanced(t.app, t.admin);
  });
});
