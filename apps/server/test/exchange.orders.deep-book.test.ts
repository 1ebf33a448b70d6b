/**
 * An order that sweeps a deep book: a placement first reads `CROSSING_FIRST_READ` resting
 * orders of the side it crosses and reads on only when they do not cover its quantity. Whether it stops
 * inside the first read, just past it or runs through the whole reachable side, the order fills the
 * resting orders in exact price-time priority, cancels the taker's own resting orders it reaches
 * (self-trade prevention, which uses up none of its quantity) and leaves every other order as it was.
 */
import { type Amount, ORDER_STATE, type PlaceOrderResponse, parseAmount } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { inTransaction } from '../src/db/transaction.ts';
import { LiveChanges } from '../src/lib/live-changes.ts';
import { CROSSING_FIRST_READ } from '../src/modules/exchange/orders.queries.ts';
import { placeOrders } from '../src/modules/exchange/orders.service.ts';
import { createMarket, expectBookConsistent, fundedMember, placeOk } from './exchange.helpers.ts';
import { expectLedgerBalanced, type Member, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();

/** Resting orders in the book: more than the first read, every third one the taker's. */
const DEPTH = CROSSING_FIRST_READ + 60;
const PRICES = ['1.00', '1.25', '1.50', '1.75', '2.00'];

interface Resting {
  id: string;
  index: number;
  owner: Member;
  price: string;
}

/** The resting side's priority: sells lowest price first, buys highest; then oldest first. */
function byPriority(restingBuys: boolean) {
  return (a: Resting, b: Resting) => {
    const [pa, pb] = [parseAmount(a.price) as Amount, parseAmount(b.price) as Amount];
    if (pa !== pb) return (restingBuys ? pa > pb : pa < pb) ? -1 : 1;
    return a.index - b.index;
  };
}

/**
 * A pair whose book holds `DEPTH` resting orders of one quantity each on one side, placed in one batch
 * by two traders and the taker at prices that interleave (so price ties span the first read's edge).
 */
async function deepBook(restingBuys: boolean) {
  const collector = await registerMember(t.app, 'fee');
  const m = await createMarket(t.app, t.admin, { fee: '0.01', feeCollector: collector.nickname });
  const holdings = { [m.base.currencyId]: '1000', [m.quote.currencyId]: '1000' };
  const people = [
    await fundedMember(t.app, t.admin, holdings),
    await fundedMember(t.app, t.admin, holdings),
    await fundedMember(t.app, t.admin, holdings),
  ];
  const taker = people[2] as Member;
  const specs = Array.from({ length: DEPTH }, (_, index) => ({
    index,
    owner: people[index % 3] as Member,
    price: PRICES[(index * 7) % PRICES.length] as string,
  }));
  const outcomes = await inTransaction(t.built.database.db, (tx) =>
    placeOrders(
      tx,
      specs.map((s) => ({
        member: { id: s.owner.id, nickname: s.owner.nickname, role: 'user' as const },
        input: {
          pair: m.pair._id,
          buySide: restingBuys,
          initialAmount: parseAmount('1') as Amount,
          price: parseAmount(s.price) as Amount,
        },
      })),
      new LiveChanges(),
    ),
  );
  const resting: Resting[] = outcomes.map((o, i) => {
    if (!o.ok) throw o.error;
    return { ...(specs[i] as (typeof specs)[number]), id: o.value.order._id };
  });
  return { m, taker, resting };
}

/** What the book should end as: per order, [state, filled]; and the taker's trades as [price, amount]. */
function expected(resting: readonly Resting[], restingBuys: boolean, taker: Member, quantity: number) {
  const states = new Map<string, [number, string]>(resting.map((r) => [r.id, [ORDER_STATE.Placed, '0.00']]));
  const trades: string[][] = [];
  let left = quantity;
  for (const r of [...resting].sort(byPriority(restingBuys))) {
    if (left === 0) break;
    if (r.owner.id === taker.id) states.set(r.id, [ORDER_STATE.Cancelled, '0.00']);
    else {
      states.set(r.id, [ORDER_STATE.Filled, '1.00']);
      trades.push([r.price, '1.00']);
      left -= 1;
    }
  }
  return { states, trades, left };
}

describe('an order that sweeps a deep book', () => {
  // The other traders own two thirds of the book: ~133 orders in the first read, 173 in all.
  const others = DEPTH - Math.ceil(DEPTH / 3);
  const cases = [
    { restingBuys: false, quantity: 60, reach: 'inside the first read' },
    { restingBuys: false, quantity: 150, reach: 'past the first read' },
    { restingBuys: true, quantity: 150, reach: 'past the first read' },
    { restingBuys: true, quantity: others + 5, reach: 'through the whole side, the rest resting' },
  ];
  it.each(cases)('fills in price-time priority, resting buys $restingBuys, reaching $reach', async (c) => {
    const { m, taker, resting } = await deepBook(c.restingBuys);
    const answer: PlaceOrderResponse = await placeOk(
      t.app,
      taker,
      m.pair._id,
      !c.restingBuys,
      String(c.quantity),
      c.restingBuys ? '0.50' : '3.00',
    );
    const want = expected(resting, c.restingBuys, taker, c.quantity);
    expect(answer.trades.map((x) => [x.price, x.amount])).toEqual(want.trades);
    expect(answer.order.filledAmount).toBe(`${c.quantity - want.left}.00`);
    expect(answer.order.state).toBe(want.left === 0 ? ORDER_STATE.Filled : ORDER_STATE.Placed);
    const rows = await t.built.database.db.execute<{ id: string; state: number; filled: string }>(sql`
      SELECT id, state, to_char(filled_amount, 'FM0.00') AS filled FROM exchange_orders
      WHERE pair_id = ${m.pair._id} AND id <> ${answer.order._id}`);
    expect(new Map(rows.rows.map((r) => [r.id, [r.state, r.filled]]))).toEqual(want.states);
    await expectBookConsistent(t.built, m.pair._id, m.quote.precision);
    await expectLedgerBalanced(t.app, t.admin);
  });
});
