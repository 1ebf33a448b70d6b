/**
 * The matching engine, alone: examples, then fast-check properties over random order sequences checked
 * against a naive reference matcher written here (STYLE habit 6).
 */
import { type Amount, UNIT } from '@starlight/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Book,
  type BookOrder,
  buyEscrowFor,
  comparePriority,
  type Fill,
  fillCost,
  type MarketRules,
  matchOrder,
} from './matching.engine.ts';

const a = (text: string): Amount => {
  const [whole = '0', frac = ''] = text.split('.');
  return (BigInt(whole) * UNIT + BigInt(frac.padEnd(9, '0'))) as Amount;
};
const rules2: MarketRules = { buyPrecision: 2, sellPrecision: 2, fee: 0n as Amount };

let seq = 0;
function order(buySide: boolean, qty: string, price: string, owner = 'u1'): BookOrder {
  seq++;
  const remaining = a(qty);
  const p = a(price);
  return {
    id: `o${seq}`,
    ownerId: owner,
    buySide,
    price: p,
    remaining,
    escrow: buySide ? buyEscrowFor(remaining, p, 2) : remaining,
    seq,
  };
}

describe('escrow and cost rounding', () => {
  it('rounds a buy escrow up and a fill cost down to the sell currency precision', () => {
    expect(buyEscrowFor(a('1'), a('0.01'), 2)).toBe(a('0.01'));
    expect(buyEscrowFor(a('0.5'), a('0.01'), 2)).toBe(a('0.01'));
    expect(fillCost(a('0.5'), a('0.01'), 2)).toBe(0n);
    expect(buyEscrowFor(a('3.33'), a('1.5'), 2)).toBe(a('5'));
    expect(fillCost(a('3.33'), a('1.5'), 2)).toBe(a('4.99'));
    expect(buyEscrowFor(a('2'), a('1.25'), 0)).toBe(a('3'));
    expect(fillCost(a('2'), a('1.25'), 0)).toBe(a('2'));
    expect(buyEscrowFor(a('0.000000001'), a('0.000000001'), 9)).toBe(a('0.000000001'));
    expect(buyEscrowFor(0n, a('5'), 2)).toBe(0n);
  });
});

describe('matchOrder', () => {
  it('rests an order that crosses nothing', () => {
    const sell = order(false, '5', '2');
    const r = matchOrder({ buys: [], sells: [sell] }, order(true, '1', '1.99'), rules2);
    expect(r.fills).toEqual([]);
    expect(r.book.buys.map((o) => o.price)).toEqual([a('1.99')]);
    expect(r.book.sells).toEqual([sell]);
  });

  it('fills by price, then time, at the resting price, and returns the buyer price improvement', () => {
    const s1 = order(false, '2', '1.10', 's1');
    const s2 = order(false, '2', '1.00', 's2');
    const s3 = order(false, '2', '1.00', 's3');
    const buy = order(true, '5', '1.20', 'b');
    expect(buy.escrow).toBe(a('6'));
    const r = matchOrder({ buys: [], sells: [s1, s2, s3] }, buy, rules2);
    expect(r.fills.map((f) => [f.makerOrderId, f.quantity, f.price, f.cost, f.buyerRefund])).toEqual([
      [s2.id, a('2'), a('1'), a('2'), a('0.4')],
      [s3.id, a('2'), a('1'), a('2'), a('0.4')],
      [s1.id, a('1'), a('1.1'), a('1.1'), a('0.1')],
    ]);
    expect(r.taker.remaining).toBe(0n);
    expect(r.taker.escrow).toBe(0n);
    expect(r.book.sells).toEqual([{ ...s1, remaining: a('1'), escrow: a('1') }]);
    expect(r.book.buys).toEqual([]);
  });

  it('leaves a partly filled taker on the book with the escrow of its rest', () => {
    const s = order(false, '1', '0.50', 's');
    const buy = order(true, '3', '0.60', 'b');
    const r = matchOrder({ buys: [], sells: [s] }, buy, rules2);
    expect(r.fills[0]?.cost).toBe(a('0.5'));
    expect(r.fills[0]?.buyerRefund).toBe(a('0.1'));
    expect(r.taker.remaining).toBe(a('2'));
    expect(r.taker.escrow).toBe(a('1.2'));
    expect(r.book.buys).toEqual([r.taker]);
    expect(r.book.sells).toEqual([]);
  });

  it('sells into the best bids at their prices, with fees on both proceeds', () => {
    const b1 = order(true, '1', '2.00', 'b1');
    const b2 = order(true, '10', '3.00', 'b2');
    const rules: MarketRules = { buyPrecision: 2, sellPrecision: 2, fee: a('0.01') };
    const r = matchOrder({ buys: [b1, b2], sells: [] }, order(false, '10.5', '1.00', 's'), rules);
    expect(r.fills.map((f) => [f.makerOrderId, f.quantity, f.cost, f.buyerFee, f.sellerFee])).toEqual([
      [b2.id, a('10'), a('30'), a('0.1'), a('0.3')],
      // 1% of 0.5 = 0.005: the buyer's fee rounds up to 0.01 (DESIGN §4), never to nothing.
      [b1.id, a('0.5'), a('1'), a('0.01'), a('0.01')],
    ]);
    expect(r.book.buys).toEqual([{ ...b1, remaining: a('0.5'), escrow: a('1') }]);
  });

  it("self-trade prevention: cancels the owner's resting orders it reaches and fills the others in priority", () => {
    const own1 = order(true, '2', '1.50', 'me');
    const other1 = order(true, '1', '1.50', 'bob');
    const own2 = order(true, '3', '1.40', 'me');
    const other2 = order(true, '4', '1.30', 'carol');
    const ownBehind = order(true, '5', '1.20', 'me');
    const book: Book = { buys: [ownBehind, other2, own2, other1, own1], sells: [] };
    const sell = order(false, '3', '1.30', 'me');
    const r = matchOrder(book, sell, { ...rules2, fee: a('0.01') });
    // Own orders at the best price and at a worse one are skipped and cancelled, as they were.
    expect(r.cancelled).toEqual([own1, own2]);
    // The others fill in price-time priority at their own prices: bob behind own1 at 1.50, then carol.
    expect(r.fills.map((f) => [f.makerOrderId, f.buyerId, f.sellerId, f.quantity, f.price])).toEqual([
      [other1.id, 'bob', 'me', a('1'), a('1.5')],
      [other2.id, 'carol', 'me', a('2'), a('1.3')],
    ]);
    expect(r.fills.every((f) => f.buyerId !== f.sellerId)).toBe(true);
    expect(r.taker.remaining).toBe(0n);
    // The own order that the sell never reached (filled before it) stays, with carol's rest.
    expect(r.book.buys).toEqual([{ ...other2, remaining: a('2'), escrow: a('2.6') }, ownBehind]);
    expect(r.book.sells).toEqual([]);
  });

  it("self-trade prevention: an order that meets only its owner's orders cancels them and rests", () => {
    const own = order(false, '2', '1.00', 'me');
    const other = order(false, '2', '1.10', 'bob');
    const buy = order(true, '1', '1.05', 'me');
    const r = matchOrder({ buys: [], sells: [other, own] }, buy, rules2);
    expect(r.fills).toEqual([]);
    expect(r.makers).toEqual([]);
    expect(r.cancelled).toEqual([own]);
    expect(r.book).toEqual({ buys: [buy], sells: [other] });
  });

  it('refuses an order without quantity', () => {
    const o = { ...order(true, '1', '1'), remaining: 0n as Amount };
    expect(() => matchOrder({ buys: [], sells: [] }, o, rules2)).toThrow();
  });
});

// ---------------------------------------------------------------------------------------------------
// Properties against a naive reference matcher.

interface RefOrder {
  id: string;
  owner: string;
  buySide: boolean;
  price: bigint;
  initial: bigint;
  remaining: bigint;
  escrow: bigint;
  arrival: number;
  open: boolean;
}

/** Exact ceil / floor of quantity x price (both 10^-9 units) to `precision` decimals, via rationals. */
function refCeil(q: bigint, p: bigint, precision: number): bigint {
  const den = UNIT * 10n ** BigInt(9 - precision);
  const n = q * p;
  const whole = n / den + (n % den === 0n ? 0n : 1n);
  return whole * 10n ** BigInt(9 - precision);
}
function refFloor(q: bigint, p: bigint, precision: number): bigint {
  const step = 10n ** BigInt(9 - precision);
  const inUnits = (q * p) / UNIT;
  return inUnits - (inUnits % step);
}

/**
 * Scans every open order for the best crossing one each time: slow, obviously right. The best one, when
 * the incoming order's owner placed it, is cancelled instead (self-trade prevention) and listed.
 */
function referenceMatch(all: RefOrder[], incoming: RefOrder, rules: MarketRules) {
  const fills: Array<Omit<Fill, 'takerOrderId'>> = [];
  const cancelled: RefOrder[] = [];
  for (;;) {
    if (incoming.remaining === 0n) break;
    let best: RefOrder | undefined;
    for (const o of all) {
      if (!o.open || o.buySide === incoming.buySide) continue;
      const ok = incoming.buySide ? o.price <= incoming.price : o.price >= incoming.price;
      if (!ok) continue;
      const better =
        !best ||
        (incoming.buySide ? o.price < best.price : o.price > best.price) ||
        (o.price === best.price && o.arrival < best.arrival);
      if (better) best = o;
    }
    if (!best) break;
    if (best.owner === incoming.owner) {
      best.open = false;
      cancelled.push(best);
      continue;
    }
    let q = incoming.remaining;
    if (best.remaining < q) q = best.remaining;
    const buy = incoming.buySide ? incoming : best;
    const sell = incoming.buySide ? best : incoming;
    const cost = refFloor(q, best.price, rules.sellPrecision);
    const after = refCeil(buy.remaining - q, buy.price, rules.sellPrecision);
    const refund = buy.escrow - cost - after;
    fills.push({
      makerOrderId: best.id,
      buyOrderId: buy.id,
      sellOrderId: sell.id,
      buyerId: buy.owner,
      sellerId: sell.owner,
      price: best.price as Amount,
      quantity: q as Amount,
      cost: cost as Amount,
      buyerRefund: refund as Amount,
      buyerFee: refCeil(q, rules.fee, rules.buyPrecision) as Amount,
      sellerFee: refCeil(cost, rules.fee, rules.sellPrecision) as Amount,
    });
    buy.remaining -= q;
    buy.escrow = after;
    sell.remaining -= q;
    sell.escrow -= q;
    if (best.remaining === 0n) best.open = false;
  }
  if (incoming.remaining > 0n) {
    incoming.open = true;
    all.push(incoming);
  }
  return { fills, cancelled };
}

type Op =
  | { kind: 'place'; buySide: boolean; priceSteps: number; qtySteps: number; owner: number }
  | { kind: 'cancel'; pick: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('place' as const),
      buySide: fc.boolean(),
      priceSteps: fc.integer({ min: 1, max: 40 }),
      qtySteps: fc.integer({ min: 1, max: 60 }),
      owner: fc.integer({ min: 0, max: 3 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
);

const marketArb = fc.record({
  buyPrecision: fc.integer({ min: 0, max: 4 }),
  sellPrecision: fc.integer({ min: 0, max: 4 }),
  feeMillionths: fc.integer({ min: 0, max: 1_000_000 }),
  priceScale: fc.constantFrom(1n, 3n, 7n, 25n),
});

function bestPrices(book: Book): { bid?: bigint; ask?: bigint } {
  return { bid: book.buys[0]?.price, ask: book.sells[0]?.price };
}

describe('matchOrder properties', () => {
  it('keeps the book uncrossed and sorted, conserves quantity and escrow, and equals the reference', () => {
    fc.assert(
      fc.property(marketArb, fc.array(opArb, { minLength: 1, maxLength: 60 }), (m, ops) => {
        const rules: MarketRules = {
          buyPrecision: m.buyPrecision,
          sellPrecision: m.sellPrecision,
          fee: (BigInt(m.feeMillionths) * 1000n) as Amount,
        };
        const buyStep = 10n ** BigInt(9 - m.buyPrecision);
        const sellStep = 10n ** BigInt(9 - m.sellPrecision);
        let book: Book = { buys: [], sells: [] };
        const ref: RefOrder[] = [];
        const initialOf = new Map<string, { initial: bigint; escrow: bigint; buySide: boolean; price: bigint }>();
        const filled = new Map<string, bigint>();
        const paidOut = new Map<string, bigint>();
        let n = 0;

        for (const op of ops) {
          if (op.kind === 'cancel') {
            const open = [...book.buys, ...book.sells];
            const victim = open.length > 0 ? open[op.pick % open.length] : undefined;
            if (!victim) continue;
            book = {
              buys: book.buys.filter((o) => o.id !== victim.id),
              sells: book.sells.filter((o) => o.id !== victim.id),
            };
            const r = ref.find((o) => o.id === victim.id);
            if (r) r.open = false;
            paidOut.set(victim.id, (paidOut.get(victim.id) ?? 0n) + victim.escrow);
            continue;
          }
          n++;
          const price = BigInt(op.priceSteps) * m.priceScale * sellStep;
          const qty = BigInt(op.qtySteps) * buyStep;
          const escrow = op.buySide ? buyEscrowFor(qty, price, m.sellPrecision) : qty;
          const incoming: BookOrder = {
            id: `o${n}`,
            ownerId: `u${op.owner}`,
            buySide: op.buySide,
            price: price as Amount,
            remaining: qty as Amount,
            escrow: escrow as Amount,
            seq: n,
          };
          initialOf.set(incoming.id, { initial: qty, escrow, buySide: op.buySide, price });
          const before = new Map([...book.buys, ...book.sells].map((o) => [o.id, o]));

          const result = matchOrder(book, incoming, rules);
          const expected = referenceMatch(
            ref,
            {
              id: incoming.id,
              owner: incoming.ownerId,
              buySide: op.buySide,
              price,
              initial: qty,
              remaining: qty,
              escrow,
              arrival: n,
              open: false,
            },
            rules,
          );

          // The same fills and self-trade cancellations as the naive reference, in the same order.
          expect(result.fills.map(({ takerOrderId: _t, ...f }) => f)).toEqual(expected.fills);
          expect(result.cancelled.map((c) => [c.id, c.remaining, c.escrow])).toEqual(
            expected.cancelled.map((c) => [c.id, c.remaining, c.escrow]),
          );
          // Never a trade with oneself; a cancelled order is the taker's owner's and returns its escrow.
          expect(result.fills.every((f) => f.buyerId !== f.sellerId)).toBe(true);
          for (const c of result.cancelled) {
            expect(c.ownerId).toBe(incoming.ownerId);
            expect(c).toEqual(before.get(c.id));
            paidOut.set(c.id, (paidOut.get(c.id) ?? 0n) + c.escrow);
          }

          // What leaves the incoming order equals what enters the resting ones.
          const takerQty = qty - result.taker.remaining;
          const fillQty = result.fills.reduce((s, f) => s + f.quantity, 0n);
          const makerQty = result.makers.reduce(
            (s, mk) => s + ((before.get(mk.id)?.remaining ?? 0n) - mk.remaining),
            0n,
          );
          expect(fillQty).toBe(takerQty);
          expect(makerQty).toBe(takerQty);

          for (const f of result.fills) {
            // Each trade at the resting order's price, never worse than the taker's limit.
            expect(f.price).toBe(before.get(f.makerOrderId)?.price);
            expect(op.buySide ? f.price <= price : f.price >= price).toBe(true);
            for (const id of [f.buyOrderId, f.sellOrderId]) filled.set(id, (filled.get(id) ?? 0n) + f.quantity);
            paidOut.set(f.buyOrderId, (paidOut.get(f.buyOrderId) ?? 0n) + f.cost + f.buyerRefund);
            paidOut.set(f.sellOrderId, (paidOut.get(f.sellOrderId) ?? 0n) + f.quantity);
            expect(f.buyerRefund >= 0n && f.cost >= 0n).toBe(true);
            expect(f.buyerFee <= f.quantity && f.sellerFee <= f.cost).toBe(true);
          }
          // Price-time priority: the makers and the cancelled orders make a prefix of the opposite side.
          const opposite = [...(op.buySide ? book.sells : book.buys)].sort(comparePriority);
          const reached = [...result.makers, ...result.cancelled].sort(comparePriority).map((o) => o.id);
          expect(reached).toEqual(opposite.slice(0, reached.length).map((o) => o.id));

          book = result.book;

          // The book is never crossed, each side stays in priority order, only open orders rest on it.
          const { bid, ask } = bestPrices(book);
          if (bid !== undefined && ask !== undefined) expect(bid < ask).toBe(true);
          expect(book.buys).toEqual([...book.buys].sort(comparePriority));
          expect(book.sells).toEqual([...book.sells].sort(comparePriority));
          expect(book.buys.every((o) => o.buySide && o.remaining > 0n)).toBe(true);
          expect(book.sells.every((o) => !o.buySide && o.remaining > 0n)).toBe(true);
          // The same book as the reference.
          const refOpen = ref.filter((o) => o.open);
          expect(
            [...book.buys, ...book.sells]
              .map((o) => [o.id, o.remaining, o.escrow])
              .sort(([x], [y]) => String(x).localeCompare(String(y))),
          ).toEqual(
            refOpen.map((o) => [o.id, o.remaining, o.escrow]).sort(([x], [y]) => String(x).localeCompare(String(y))),
          );
        }

        for (const [id, info] of initialOf) {
          const f = filled.get(id) ?? 0n;
          // Filled never exceeds initial.
          expect(f <= info.initial).toBe(true);
          const resting = [...book.buys, ...book.sells].find((o) => o.id === id);
          // Escrow is exact: what it took = what left it + what it still holds, and what it holds covers the rest.
          expect(info.escrow).toBe((paidOut.get(id) ?? 0n) + (resting?.escrow ?? 0n));
          if (resting) {
            expect(resting.remaining).toBe(info.initial - f);
            expect(resting.escrow).toBe(
              info.buySide ? buyEscrowFor(resting.remaining, info.price, m.sellPrecision) : resting.remaining,
            );
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
