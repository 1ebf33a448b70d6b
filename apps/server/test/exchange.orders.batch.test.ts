/**
 * Orders placed in batches (DESIGN §5, §9: the exchange's group commit) end exactly as the same orders
 * placed one after the other: the same answers and refusals, the same trades, the same books, the same
 * balances to the last unit, and a balanced ledger. Random sequences (fast-check) over two pairs that
 * share their quote currency (one batch spans both, with one working balance of it per trader), on two
 * identical set-ups: one fed order by order through the API, one given the whole sequence as one batch.
 */
import { type Amount, AppError, type GetOrdersResponse, type PlaceOrderResponse, parseAmount } from '@starlight/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inTransaction } from '../src/db/transaction.ts';
import { LiveChanges } from '../src/lib/live-changes.ts';
import { placeOrders } from '../src/modules/exchange/orders.service.ts';
import {
  createCurrency,
  createMarket,
  fundedMember,
  type Market,
  ordersOf,
  place,
  type TestCurrency,
} from './exchange.helpers.ts';
import { balanceOf, call, expectLedgerBalanced, type Member, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();

interface OrderSpec {
  who: number;
  /** 0: the market's pair; 1: the second pair. */
  on: number;
  buySide: boolean;
  qty: string;
  price: string;
}

/** Two pairs, a second base against the first pair's quote: what one set-up holds. */
interface SetUp {
  market: Market;
  /** The second pair and its base; its quote is `market.quote`. */
  second: { pair: Market['pair']; base: TestCurrency };
  traders: Member[];
  collector: Member;
}

/** Three traders with little money (so some orders are refused), a fee collector, two pairs. */
async function setUp(): Promise<SetUp> {
  const collector = await registerMember(t.app, 'fee');
  const market = await createMarket(t.app, t.admin, { fee: '0.01', feeCollector: collector.nickname });
  const base = await createCurrency(t.app, t.admin);
  const res = await call(t.app, t.admin.token, 'POST', '/api/cex/createPair', {
    buyCurrency: base.currencyId,
    sellCurrency: market.quote.currencyId,
    canBuy: true,
    canSell: true,
    fee: '0.01',
    feeCollector: collector.nickname,
  });
  expect(res.statusCode, res.body).toBe(200);
  const second = { pair: res.json<{ pair: Market['pair'] }>().pair, base };
  const holdings = { [market.base.currencyId]: '6', [market.quote.currencyId]: '9', [base.currencyId]: '6' };
  const traders = [
    await fundedMember(t.app, t.admin, holdings),
    await fundedMember(t.app, t.admin, holdings),
    await fundedMember(t.app, t.admin, holdings),
  ];
  return { market, second, traders, collector };
}

/** The pair an order goes to. */
const pairOf = (s: SetUp, o: OrderSpec) => (o.on === 0 ? s.market.pair : s.second.pair);

/** A message with the set-up's tickers as BASE, BASE2 and QUOTE, so two set-ups compare. */
function generic(message: string, s: SetUp): string {
  return message
    .replaceAll(s.market.base.ticker, 'BASE')
    .replaceAll(s.second.base.ticker, 'BASE2')
    .replaceAll(s.market.quote.ticker, 'QUOTE');
}

/** What a member sees of an order's answer, without ids and times. */
function seen(r: PlaceOrderResponse, s: SetUp) {
  const { order, trades, message } = r;
  return {
    message: generic(message, s),
    order: [order.buySide, order.initialAmount, order.price, order.filledAmount, order.state],
    trades: trades.map((t) => [t.price, t.amount, t.buySide]),
  };
}

/** The end state of a set-up: both books, each member's orders and balances, by member index. */
async function endState(s: SetUp) {
  const level = (o: { price: string; initialAmount: string; filledAmount: string }) => [
    o.price,
    o.initialAmount,
    o.filledAmount,
  ];
  const book = async (pairId: string) => {
    const res = await call(t.app, undefined, 'POST', '/api/cex/getOrders', { pair: pairId });
    const { orders } = res.json<GetOrdersResponse>();
    return { buys: orders.buys.map(level), sells: orders.sells.map(level) };
  };
  const people = [...s.traders, s.collector];
  return {
    books: [await book(s.market.pair._id), await book(s.second.pair._id)],
    orders: await Promise.all(
      s.traders.map(async (trader) =>
        (await ordersOf(t.app, trader)).map((o) => [o.buySide, o.initialAmount, o.price, o.filledAmount, o.state]),
      ),
    ),
    balances: await Promise.all(
      people.map(async (p) => [
        await balanceOf(t.app, p, s.market.base.currencyId),
        await balanceOf(t.app, p, s.market.quote.currencyId),
        await balanceOf(t.app, p, s.second.base.currencyId),
      ]),
    ),
  };
}

const orderSpec = fc.record({
  who: fc.integer({ min: 0, max: 2 }),
  on: fc.integer({ min: 0, max: 1 }),
  buySide: fc.boolean(),
  // '1.005' breaks the base currency's precision (above the wire's minimum, so both paths reach the
  // order's own check): a refused order inside the batch.
  qty: fc.constantFrom('0.5', '1', '1.25', '2', '3', '1.005'),
  price: fc.constantFrom('0.5', '0.75', '1', '1.5', '2'),
});

describe('orders placed in one batch', () => {
  it('end exactly as the same orders placed one by one', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(orderSpec, { minLength: 1, maxLength: 14 }), async (specs: OrderSpec[]) => {
        const one = await setUp();
        const sequential: unknown[] = [];
        for (const o of specs) {
          const res = await place(t.app, one.traders[o.who], pairOf(one, o)._id, o.buySide, o.qty, o.price);
          sequential.push(
            res.statusCode === 200
              ? seen(res.json<PlaceOrderResponse>(), one)
              : [res.statusCode, generic(res.json().message, one)],
          );
        }

        const two = await setUp();
        const jobs = specs.map((o) => {
          const trader = two.traders[o.who] as Member;
          return {
            member: { id: trader.id, nickname: trader.nickname, role: 'user' },
            input: {
              pair: pairOf(two, o)._id,
              buySide: o.buySide,
              initialAmount: parseAmount(o.qty) as Amount,
              price: parseAmount(o.price) as Amount,
            },
          };
        });
        const outcomes = await inTransaction(t.built.database.db, (tx) => placeOrders(tx, jobs, new LiveChanges()));
        const batched = outcomes.map((o) => {
          if (o.ok) return seen(o.value, two);
          expect(o.error).toBeInstanceOf(AppError);
          const e = o.error as AppError;
          return [e.code === 'CONFLICT' ? 409 : 400, generic(e.message, two)];
        });

        expect(batched).toEqual(sequential);
        expect(await endState(two)).toEqual(await endState(one));
      }),
      { numRuns: 16 },
    );
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('refuses an order whose funds an earlier order of the same batch took, and keeps the others', async () => {
    const s = await setUp();
    const [a, b] = s.traders as [Member, Member];
    const job = (m: Member, buySide: boolean, qty: string, price: string) => ({
      member: { id: m.id, nickname: m.nickname, role: 'user' },
      input: {
        pair: s.market.pair._id,
        buySide,
        initialAmount: parseAmount(qty) as Amount,
        price: parseAmount(price) as Amount,
      },
    });
    // Both hold 6 base and 9 quote. B's sell rests (B keeps 2 base); A's buy at 2 escrows 8 (A keeps 1)
    // and fills at B's price 1, so 4 of the escrow comes back (A: 5); A's buy of 3 at 2 needs 6: refused;
    // A's buy of 2 at 2 needs 4: it rests (A: 1); B's sell of 3 needs 3 base, B has 2: refused.
    const base = s.market.base.ticker;
    const quote = s.market.quote.ticker;
    const outcomes = await inTransaction(t.built.database.db, (tx) =>
      placeOrders(
        tx,
        [
          job(b, false, '4', '1'),
          job(a, true, '4', '2'),
          job(a, true, '3', '2'),
          job(a, true, '2', '2'),
          job(b, false, '3', '2'),
        ],
        new LiveChanges(),
      ),
    );
    expect(outcomes.map((o) => (o.ok ? o.value.message : (o.error as Error).message))).toEqual([
      `Placed a Sell Order of 4.00 ${base} at 1.00 ${quote}`,
      `Placed a buy order of 4.00 ${base} at 2.00 ${quote}; 4.00 ${base} filled at once`,
      'Insufficient funds',
      `Placed a buy order of 2.00 ${base} at 2.00 ${quote}`,
      'Insufficient funds',
    ]);
    // The first answer shows the sell as it was placed; the book shows it filled since.
    const first = outcomes[0];
    expect(first?.ok && first.value.order.state).toBe(1);
    expect((await ordersOf(t.app, b)).map((o) => [o.state, o.filledAmount])).toEqual([[3, '4.00']]);
    // 1% fee on each side's proceeds to the collector.
    expect(await balanceOf(t.app, a, s.market.base.currencyId)).toBe('9.96');
    expect(await balanceOf(t.app, a, s.market.quote.currencyId)).toBe('1');
    expect(await balanceOf(t.app, b, s.market.base.currencyId)).toBe('2');
    expect(await balanceOf(t.app, b, s.market.quote.currencyId)).toBe('12.96');
    expect(await balanceOf(t.app, s.collector, s.market.base.currencyId)).toBe('0.04');
    expect(await balanceOf(t.app, s.collector, s.market.quote.currencyId)).toBe('0.04');
    await expectLedgerBalanced(t.app, t.admin);
  });
});
