/**
 * The matching engine's market orders and orders that must not rest (DESIGN §11.4), alone: fast-check
 * properties over random books. A market buy spends at most its budget, in price-time priority, and stops
 * only when filled, out of orders or out of money; a market sell fills until filled or out of orders;
 * an order that must not rest (IOC, FOK) fills exactly as a resting one would and leaves the book as it was.
 */
import type { Amount } from '@starlight/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  affordable,
  type Book,
  type BookOrder,
  buyEscrowFor,
  comparePriority,
  fillCost,
  type MarketRules,
  matchOrder,
} from './matching.engine.ts';

const restingArb = fc.array(
  fc.record({
    buySide: fc.boolean(),
    priceSteps: fc.integer({ min: 1, max: 40 }),
    qtySteps: fc.integer({ min: 1, max: 60 }),
    owner: fc.integer({ min: 0, max: 3 }),
  }),
  { maxLength: 30 },
);

const rulesArb = fc.record({
  buyPrecision: fc.integer({ min: 0, max: 4 }),
  sellPrecision: fc.integer({ min: 0, max: 4 }),
  makerFee: fc.integer({ min: 0, max: 1_000_000 }).map((x) => (BigInt(x) * 1000n) as Amount),
  takerFee: fc.integer({ min: 0, max: 1_000_000 }).map((x) => (BigInt(x) * 1000n) as Amount),
});

/** A book of resting orders built from `specs` (owners u0..u3), uncrossed: the lower prices are sells. */
type RestingSpec = { buySide: boolean; priceSteps: number; qtySteps: number; owner: number };

function bookOf(specs: readonly RestingSpec[], rules: MarketRules): Book {
  const sellStep = 10n ** BigInt(9 - rules.sellPrecision);
  const buyStep = 10n ** BigInt(9 - rules.buyPrecision);
  const orders: BookOrder[] = specs.map((s, i) => {
    // Buys at 1..40 steps, sells at 41..80: never crossed.
    const price = (BigInt(s.buySide ? s.priceSteps : s.priceSteps + 40) * sellStep) as Amount;
    const remaining = (BigInt(s.qtySteps) * buyStep) as Amount;
    const escrow = s.buySide ? buyEscrowFor(remaining, price, rules.sellPrecision) : remaining;
    return { id: `r${i}`, ownerId: `u${s.owner}`, buySide: s.buySide, price, remaining, escrow, seq: i };
  });
  return {
    buys: orders.filter((o) => o.buySide).sort(comparePriority),
    sells: orders.filter((o) => !o.buySide).sort(comparePriority),
  };
}

/** The smallest of some bigints. */
function least(first: bigint, ...rest: bigint[]): bigint {
  let m = first;
  for (const x of rest) if (x < m) m = x;
  return m;
}

describe('market orders and orders that do not rest', () => {
  it('affordable is the largest quantity step whose cost fits the budget', () => {
    fc.assert(
      fc.property(rulesArb, fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 1, max: 10_000 }), (r, b, p) => {
        const price = (BigInt(p) * 10n ** BigInt(9 - r.sellPrecision)) as Amount;
        const q = affordable(b, price, r);
        const buyStep = 10n ** BigInt(9 - r.buyPrecision);
        expect(q % buyStep).toBe(0n);
        expect(fillCost(q, price, r.sellPrecision) <= b).toBe(true);
        expect(fillCost(q + buyStep, price, r.sellPrecision) > b).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('a market buy spends at most its budget, in priority order, and stops only when it must', () => {
    fc.assert(
      fc.property(
        rulesArb,
        restingArb,
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 0, max: 5_000 }),
        (rules, specs, qtySteps, budgetSteps) => {
          const book = bookOf(specs, rules);
          const budget = (BigInt(budgetSteps) * 10n ** BigInt(9 - rules.sellPrecision)) as Amount;
          const qty = (BigInt(qtySteps) * 10n ** BigInt(9 - rules.buyPrecision)) as Amount;
          const incoming: BookOrder = {
            id: 'm',
            ownerId: 'u0',
            buySide: true,
            price: 0n as Amount,
            remaining: qty,
            escrow: budget,
            seq: 1000,
          };
          const r = matchOrder(book, incoming, rules, { market: true });
          const spent = r.fills.reduce((s, f) => s + f.cost, 0n);
          const bought = r.fills.reduce((s, f) => s + f.quantity, 0n);
          expect(spent <= budget).toBe(true);
          expect(r.taker.escrow).toBe(budget - spent);
          expect(bought).toBe(qty - r.taker.remaining);
          expect(r.fills.every((f) => f.buyerRefund === 0n && f.buyerId !== f.sellerId)).toBe(true);
          // Price-time priority: what it reached is a prefix of the sells.
          const reached = [...r.makers, ...r.cancelled].sort(comparePriority).map((o) => o.id);
          expect(reached).toEqual(book.sells.slice(0, reached.length).map((o) => o.id));
          // Never on the book; the buys untouched.
          expect(r.book.buys).toEqual(book.buys);
          // Stopped early only when the best other member's sell left costs more than the budget left.
          const next = r.book.sells.find((o) => o.ownerId !== 'u0');
          if (r.taker.remaining > 0n && next) {
            const q = least(affordable(r.taker.escrow, next.price, rules), next.remaining, r.taker.remaining);
            // Or the budget ran out inside the last resting order it traded with: the whole rest of it,
            // in one fill, would cost more than the budget had left then.
            const last = r.fills[r.fills.length - 1];
            const endedInside = last !== undefined && last.makerOrderId === next.id;
            expect(endedInside || q === 0n || fillCost(q, next.price, rules.sellPrecision) === 0n).toBe(true);
          }
          expect(r.fills.every((f) => f.cost > 0n)).toBe(true);
          const bookQty = (b: Book) => b.sells.reduce((s, o) => s + o.remaining, 0n);
          const cancelledQty = r.cancelled.reduce((s, o) => s + o.remaining, 0n);
          expect(bookQty(r.book)).toBe(bookQty(book) - bought - cancelledQty);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a market sell fills until filled or out of buys; an IOC fills as a resting order would, and never rests', () => {
    fc.assert(
      fc.property(
        rulesArb,
        restingArb,
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 80 }),
        (rules, specs, qtySteps, priceSteps) => {
          const book = bookOf(specs, rules);
          const qty = (BigInt(qtySteps) * 10n ** BigInt(9 - rules.buyPrecision)) as Amount;
          const sell: BookOrder = {
            id: 'm',
            ownerId: 'u0',
            buySide: false,
            price: 0n as Amount,
            remaining: qty,
            escrow: qty,
            seq: 1000,
          };
          const r = matchOrder(book, sell, rules, { market: true });
          expect(r.taker.escrow).toBe(r.taker.remaining);
          if (r.taker.remaining > 0n) expect(r.book.buys.filter((o) => o.ownerId !== 'u0')).toEqual([]);
          expect(r.book.sells).toEqual(book.sells);

          // IOC: the same fills as the resting order, without the rest on the book.
          const price = (BigInt(priceSteps) * 10n ** BigInt(9 - rules.sellPrecision)) as Amount;
          const buy: BookOrder = {
            ...sell,
            buySide: true,
            price,
            escrow: buyEscrowFor(qty, price, rules.sellPrecision),
          };
          const resting = matchOrder(book, buy, rules);
          const ioc = matchOrder(book, buy, rules, { rest: false });
          expect(ioc.fills).toEqual(resting.fills);
          expect(ioc.taker).toEqual(resting.taker);
          expect(ioc.book.buys).toEqual(book.buys);
          expect(ioc.book.sells).toEqual(resting.book.sells);
        },
      ),
      { numRuns: 300 },
    );
  });
});
