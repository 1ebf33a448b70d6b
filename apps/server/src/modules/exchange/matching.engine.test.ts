/**
 * The matching engine, alone, by example: escrow and cost rounding, fills in price-time priority at the
 * resting price, partial fills, fees and self-trade prevention. Its properties over random order
 * sequences, against a naive reference matcher: matching.engine.properties.test.ts.
 */
import { type Amount, UNIT } from '@starlight/shared';
import { describe, expect, it } from 'vitest';
import { type Book, type BookOrder, buyEscrowFor, fillCost, type MarketRules, matchOrder } from './matching.engine.ts';

const a = (text: string): Amount => {
  const [whole = '0', frac = ''] = text.split('.');
  return (BigInt(whole) * UNIT + BigInt(frac.padEnd(9, '0'))) as Amount;
};
const rules2: MarketRules = { buyPrecision: 2, sellPrecision: 2, makerFee: 0n as Amount, takerFee: 0n as Amount };

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
    const rules: MarketRules = { buyPrecision: 2, sellPrecision: 2, makerFee: a('0.01'), takerFee: a('0.01') };
    const r = matchOrder({ buys: [b1, b2], sells: [] }, order(false, '10.5', '1.00', 's'), rules);
    expect(r.fills.map((f) => [f.makerOrderId, f.quantity, f.cost, f.buyerFee, f.sellerFee])).toEqual([
      [b2.id, a('10'), a('30'), a('0.1'), a('0.3')],
      // 1% of 0.5 = 0.005: the buyer's fee rounds up to 0.01 (DESIGN §4), never to nothing.
      [b1.id, a('0.5'), a('1'), a('0.01'), a('0.01')],
    ]);
    expect(r.book.buys).toEqual([{ ...b1, remaining: a('0.5'), escrow: a('1') }]);
  });

  it('charges the resting side the maker fee and the incoming side the taker fee', () => {
    const rules: MarketRules = { buyPrecision: 2, sellPrecision: 2, makerFee: a('0.01'), takerFee: a('0.02') };
    // An incoming sell lifts a resting buy: the buyer is the maker, the seller the taker.
    const bid = order(true, '10', '3.00', 'bob');
    const sold = matchOrder({ buys: [bid], sells: [] }, order(false, '10', '3.00', 's'), rules);
    expect(sold.fills.map((f) => [f.buyerFee, f.sellerFee])).toEqual([[a('0.1'), a('0.6')]]);
    // An incoming buy lifts a resting sell: the buyer is the taker, the seller the maker.
    const ask = order(false, '10', '3.00', 'carol');
    const bought = matchOrder({ buys: [], sells: [ask] }, order(true, '10', '3.00', 'b'), rules);
    expect(bought.fills.map((f) => [f.buyerFee, f.sellerFee])).toEqual([[a('0.2'), a('0.3')]]);
  });

  it("self-trade prevention: cancels the owner's resting orders it reaches and fills the others in priority", () => {
    const own1 = order(true, '2', '1.50', 'me');
    const other1 = order(true, '1', '1.50', 'bob');
    const own2 = order(true, '3', '1.40', 'me');
    const other2 = order(true, '4', '1.30', 'carol');
    const ownBehind = order(true, '5', '1.20', 'me');
    const book: Book = { buys: [ownBehind, other2, own2, other1, own1], sells: [] };
    const sell = order(false, '3', '1.30', 'me');
    const r = matchOrder(book, sell, { ...rules2, makerFee: a('0.01'), takerFee: a('0.01') });
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
