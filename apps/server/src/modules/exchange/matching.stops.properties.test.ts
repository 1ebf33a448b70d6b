/**
 * Stop-limit orders over the matching engine (DESIGN §11.4), alone: fast-check properties over random
 * batches of limit and stop-limit orders, driven here as the placement batch drives them (orders.escrow.ts,
 * orders.stops.ts): the batch's orders match one after the other, a stop only escrows; then the stops its
 * trades trigger (`triggeredStops`: only a trade printed after the stop) match as limit orders, oldest
 * first, round after round until none triggers. Every unit is accounted for: balances plus what every
 * order still escrows plus fees equal what the members began with; no balance or escrow goes negative; a
 * stop triggers exactly when a later trade reached its stop price; the book ends uncrossed; the same batch
 * always ends the same way.
 */
import { type Amount, UNIT } from '@starlight/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Book, type BookOrder, buyEscrowFor, type MarketRules, matchOrder } from './matching.engine.ts';
import { type Print, stopCrossed, triggeredStops } from './matching.stops.ts';

const OWNERS = 4;
const START = 1_000n * UNIT;

const specArb = fc.record({
  owner: fc.integer({ min: 0, max: OWNERS - 1 }),
  buySide: fc.boolean(),
  priceSteps: fc.integer({ min: 1, max: 30 }),
  qtySteps: fc.integer({ min: 1, max: 40 }),
  /** Null: a limit order; otherwise the stop price, in steps. */
  stopSteps: fc.option(fc.integer({ min: 1, max: 30 }), { nil: null }),
});
type Spec = typeof specArb extends fc.Arbitrary<infer T> ? T : never;

const rulesArb = fc.record({
  buyPrecision: fc.integer({ min: 0, max: 3 }),
  sellPrecision: fc.integer({ min: 0, max: 3 }),
  makerFee: fc.integer({ min: 0, max: 50 }).map((x) => (BigInt(x) * 1_000_000n) as Amount),
  takerFee: fc.integer({ min: 0, max: 50 }).map((x) => (BigInt(x) * 1_000_000n) as Amount),
});

interface Waiting extends BookOrder {
  stopPrice: Amount;
  placedAt: number;
}

/** What a batch ends with: balances by member and currency, the book, waiting stops, fees, the log. */
function runBatch(specs: readonly Spec[], rules: MarketRules) {
  const step = (p: number) => 10n ** BigInt(9 - p);
  const bal = { base: new Array<bigint>(OWNERS).fill(START), quote: new Array<bigint>(OWNERS).fill(START) };
  let fees = { base: 0n, quote: 0n };
  let book: Book = { buys: [], sells: [] };
  let waiting: Waiting[] = [];
  const triggered: Array<{ stop: Waiting; by: Print[] }> = [];
  const log: Print[] = [];
  let seq = 0;

  /** Matches `o` as a resting limit order; its trades print at `at`. */
  const place = (o: BookOrder, at: number): Print[] => {
    const r = matchOrder(book, o, rules);
    book = r.book;
    const prints: Print[] = [];
    for (const f of r.fills) {
      const buyer = Number(f.buyerId.slice(1));
      const seller = Number(f.sellerId.slice(1));
      bal.base[buyer] = (bal.base[buyer] as bigint) + f.quantity - f.buyerFee;
      bal.quote[buyer] = (bal.quote[buyer] as bigint) + f.buyerRefund;
      bal.quote[seller] = (bal.quote[seller] as bigint) + f.cost - f.sellerFee;
      fees = { base: fees.base + f.buyerFee, quote: fees.quote + f.sellerFee };
      prints.push({ price: f.price, at });
    }
    for (const c of r.cancelled) {
      const owner = Number(c.ownerId.slice(1));
      if (c.buySide) bal.quote[owner] = (bal.quote[owner] as bigint) + c.escrow;
      else bal.base[owner] = (bal.base[owner] as bigint) + c.escrow;
    }
    log.push(...prints);
    return prints;
  };

  let prints: Print[] = [];
  for (const [at, s] of specs.entries()) {
    const price = (BigInt(s.priceSteps) * step(rules.sellPrecision)) as Amount;
    const remaining = (BigInt(s.qtySteps) * step(rules.buyPrecision)) as Amount;
    const escrow = s.buySide ? buyEscrowFor(remaining, price, rules.sellPrecision) : remaining;
    const side = s.buySide ? bal.quote : bal.base;
    if ((side[s.owner] as bigint) < escrow) continue; // Insufficient funds: refused, nothing changes.
    side[s.owner] = (side[s.owner] as bigint) - escrow;
    const order: BookOrder = {
      id: `o${at}`,
      ownerId: `u${s.owner}`,
      buySide: s.buySide,
      price,
      remaining,
      escrow,
      seq,
    };
    seq++;
    if (s.stopSteps === null) prints.push(...place(order, at));
    else
      waiting.push({ ...order, stopPrice: (BigInt(s.stopSteps) * step(rules.sellPrecision)) as Amount, placedAt: at });
  }
  // Rounds: the stops the last trades trigger, oldest first; a stop placed in the batch only by a later trade.
  let firstRound = true;
  while (prints.length > 0) {
    const now = triggeredStops(waiting, prints, (w) => (firstRound ? w.placedAt : -1));
    const ids = new Set(now.map((w) => w.id));
    waiting = waiting.filter((w) => !ids.has(w.id));
    const roundPrints = prints;
    prints = [];
    for (const stop of now) {
      triggered.push({ stop, by: roundPrints });
      prints.push(...place({ ...stop, seq: seq++ }, specs.length));
    }
    firstRound = false;
  }
  return { bal, fees, book, waiting, triggered, log };
}

describe('stop-limit orders over the matching engine', () => {
  it('conserve every unit, trigger exactly on a later trade at or past the stop, and end the same way', () => {
    fc.assert(
      fc.property(rulesArb, fc.array(specArb, { maxLength: 40 }), (rules, specs) => {
        const end = runBatch(specs, rules);
        const held = (orders: readonly BookOrder[], buySide: boolean) =>
          orders.filter((o) => o.buySide === buySide).reduce((a, o) => a + o.escrow, 0n);
        const resting = [...end.book.buys, ...end.book.sells];
        const sum = (xs: bigint[]) => xs.reduce((a, x) => a + x, 0n);
        // Conservation, per currency: balances + escrow of resting and waiting orders + fees.
        expect(sum(end.bal.quote) + held(resting, true) + held(end.waiting, true) + end.fees.quote).toBe(
          START * BigInt(OWNERS),
        );
        expect(sum(end.bal.base) + held(resting, false) + held(end.waiting, false) + end.fees.base).toBe(
          START * BigInt(OWNERS),
        );
        for (const x of [...end.bal.base, ...end.bal.quote]) expect(x >= 0n).toBe(true);
        for (const o of resting) expect(o.escrow >= 0n && o.remaining > 0n).toBe(true);
        // A waiting stop holds its whole escrow, and no trade printed after it reached its stop price.
        for (const w of end.waiting) {
          expect(w.escrow).toBe(w.buySide ? buyEscrowFor(w.remaining, w.price, rules.sellPrecision) : w.remaining);
          const reached = end.log.some((p) => p.at > w.placedAt && stopCrossed(w.buySide, w.stopPrice, p.price));
          expect(reached).toBe(false);
        }
        // A triggered stop was reached by a trade printed after it was placed.
        for (const { stop, by } of end.triggered) {
          expect(by.some((p) => stopCrossed(stop.buySide, stop.stopPrice, p.price))).toBe(true);
        }
        // All resting orders are GTC limit orders: the book never stays crossed.
        const bestBid = end.book.buys[0]?.price;
        const bestAsk = end.book.sells[0]?.price;
        if (bestBid !== undefined && bestAsk !== undefined) expect(bestBid < bestAsk).toBe(true);
        // Deterministic: the same batch, the same end.
        expect(runBatch(specs, rules)).toEqual(end);
      }),
      { numRuns: 300 },
    );
  });

  it('triggers a stop on a trade of its own batch printed after it, never on one printed before', () => {
    const rules: MarketRules = { buyPrecision: 0, sellPrecision: 0, makerFee: 0n as Amount, takerFee: 0n as Amount };
    const limit = (owner: number, buySide: boolean, price: number) => ({
      owner,
      buySide,
      priceSteps: price,
      qtySteps: 1,
      stopSteps: null,
    });
    const stop = (owner: number, buySide: boolean, price: number, stopAt: number) => ({
      ...limit(owner, buySide, price),
      stopSteps: stopAt,
    });
    // A sell at 5 rests; u1's buy stop at 5 waits; u2 buys at 5: a trade at 5 triggers u1's stop, which
    // rests at 6 (nothing left to buy). u3's buy stop at 5, placed after that trade, keeps waiting.
    const end = runBatch([limit(0, false, 5), stop(1, true, 6, 5), limit(2, true, 5), stop(3, true, 7, 5)], rules);
    expect(end.triggered.map((t) => t.stop.ownerId)).toEqual(['u1']);
    expect(end.waiting.map((w) => w.ownerId)).toEqual(['u3']);
    expect(end.book.buys.map((o) => [o.ownerId, o.price])).toEqual([['u1', 6n * UNIT]]);
  });
});
