/**
 * The matching engine, alone: fast-check properties over random order sequences checked against a naive
 * reference matcher written here (STYLE habit 6). Its examples: matching.engine.test.ts.
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
  type MarketRules,
  matchOrder,
} from './matching.engine.ts';

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
      // The incoming order's side pays the taker fee, the resting order's the maker fee.
      buyerFee: refCeil(q, incoming.buySide ? rules.takerFee : rules.makerFee, rules.buyPrecision) as Amount,
      sellerFee: refCeil(cost, incoming.buySide ? rules.makerFee : rules.takerFee, rules.sellPrecision) as Amount,
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
  makerFeeMillionths: fc.integer({ min: 0, max: 1_000_000 }),
  takerFeeMillionths: fc.integer({ min: 0, max: 1_000_000 }),
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
          makerFee: (BigInt(m.makerFeeMillionths) * 1000n) as Amount,
          takerFee: (BigInt(m.takerFeeMillionths) * 1000n) as Amount,
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
