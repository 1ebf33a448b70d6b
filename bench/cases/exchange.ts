/**
 * The exchange benchmark (DESIGN §9): orders placed (and matched when they cross) per second
 * through POST /api/cex/placeOrder. About half the orders cross a resting one at the same price, so
 * the rate covers placing, escrow and matching. Once spread over several pairs (each pair's book is
 * its own lock), once on one hot pair (every order queues on the same book), and once on one pair with
 * the order types of DESIGN §11.4 mixed (`orders_mixed_types`: limit, market, IOC, FOK and post-only),
 * so its ratio stands beside the limit-only cases'.
 */
import type { RawRequest } from 'autocannon';
import { testCurrencyRequest } from '../lib/api.ts';
import { type BenchContext, measure, type Suite, throughputFigures } from '../lib/context.ts';
import { type BenchMember, registerFundedMembers } from '../lib/members.ts';
import { psql } from '../lib/postgres.ts';

/** New currencies the pairs are made of: every pair between two of them (4 currencies, 6 pairs). */
const TICKERS = ['XBA', 'XBB', 'XBC', 'XBD'];
/** Minted to every trader in every currency: far more than a run's orders can escrow. */
const FUNDING = '1000000';

type Trader = BenchMember;

interface Market {
  traders: Trader[];
  /** Pair ids; the first is the hot pair. */
  pairs: string[];
}

/** Creates the currencies and the pairs, registers `count` traders and funds them in every currency. */
async function setUpMarket(ctx: BenchContext, count: number): Promise<Market> {
  const started = Date.now();
  const currencyIds: number[] = [];
  for (const base of TICKERS) {
    const ticker = `${base}${ctx.tag}`;
    const res = await ctx.api.post<{ currency: { currencyId: number } }>(
      '/api/bank/createCurrency',
      testCurrencyRequest(ticker, 2, 'Bench'),
      ctx.adminToken,
    );
    currencyIds.push(res.currency.currencyId);
  }
  const pairs: string[] = [];
  for (const [i, buyCurrency] of currencyIds.entries()) {
    for (const sellCurrency of currencyIds.slice(i + 1)) {
      const res = await ctx.api.post<{ pair: { _id: string } }>(
        '/api/cex/createPair',
        { buyCurrency, sellCurrency, canBuy: true, canSell: true, fee: '0.001' },
        ctx.adminToken,
      );
      pairs.push(res.pair._id);
    }
  }
  const traders = await registerFundedMembers(ctx, count, 'trader', currencyIds, FUNDING);
  ctx.log(
    `exchange: ${pairs.length} pairs, ${count} traders registered and funded in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return { traders, pairs };
}

/**
 * Request `n` of an order run over `pairs`: pair n mod P; on each pair the orders alternate sell and
 * buy of 1.00 at 1.00, so a buy crosses the sell resting before it (or rests and is crossed by the
 * next sell when it overtakes it): about half the orders match. Trader n mod T, so the two sides of a
 * trade belong to different traders.
 */
function orderRequest(market: Market, pairs: readonly string[]): (n: number) => RawRequest {
  return (n) => {
    const trader = market.traders[n % market.traders.length] as Trader;
    const pair = pairs[n % pairs.length] as string;
    const buySide = Math.floor(n / pairs.length) % 2 === 1;
    return {
      method: 'POST',
      path: '/api/cex/placeOrder',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${trader.token}` },
      body: JSON.stringify({ pair, buySide, initialAmount: '1.00', price: '1.00' }),
    };
  };
}

/** Trades recorded in the server's database. */
async function tradeCount(ctx: BenchContext): Promise<number> {
  return Number(await psql(ctx.pg, ctx.database, 'SELECT count(*) FROM exchange_trades'));
}

/** One step of the mixed cycle: the order's fields besides the pair. */
type MixedOrder = { buySide: boolean; initialAmount: string; price?: string } & Record<string, unknown>;

/**
 * The mixed cycle, one order each in turn. Makers rest 2.00 a side (post-only at 0.98 / 1.02, limit at
 * 0.99 / 1.01) and takers take 1.00 (a crossing limit each way, market, IOC and FOK), so each side's book
 * grows by about 1.00 a cycle and a market or FOK order always finds enough to fill: nothing is refused
 * by design. A post-only order never crosses: no buy rests above 1.01, no sell below 1.01.
 */
const MIXED_CYCLE: readonly MixedOrder[] = [
  { buySide: false, initialAmount: '2.00', price: '1.02', postOnly: true },
  { buySide: true, initialAmount: '2.00', price: '0.98', postOnly: true },
  { buySide: false, initialAmount: '2.00', price: '1.01' },
  { buySide: true, initialAmount: '2.00', price: '0.99' },
  { buySide: true, initialAmount: '1.00', price: '1.01' },
  { buySide: true, initialAmount: '1.00', type: 'market' },
  { buySide: false, initialAmount: '1.00', type: 'market' },
  { buySide: false, initialAmount: '1.00', price: '0.98', timeInForce: 'IOC' },
  { buySide: true, initialAmount: '1.00', price: '1.02', timeInForce: 'FOK' },
  { buySide: false, initialAmount: '1.00', price: '0.99' },
];

/** Request `n` of the mixed run on `pair`: step n of the cycle, trader n mod T. */
function mixedRequest(market: Market, pair: string): (n: number) => RawRequest {
  return (n) => {
    const trader = market.traders[n % market.traders.length] as Trader;
    const order = MIXED_CYCLE[n % MIXED_CYCLE.length] as MixedOrder;
    return {
      method: 'POST',
      path: '/api/cex/placeOrder',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${trader.token}` },
      body: JSON.stringify({ pair, ...order }),
    };
  };
}

/** Rests 10 makers a side on `pair` (the cycle's limit makers), so the first market and FOK orders fill. */
async function seedBook(ctx: BenchContext, market: Market, pair: string): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const trader = market.traders[i % market.traders.length] as Trader;
    const buySide = i % 2 === 1;
    await ctx.api.post(
      '/api/cex/placeOrder',
      { pair, buySide, initialAmount: '2.00', price: buySide ? '0.99' : '1.01' },
      trader.token,
    );
  }
}

const CASES = [
  { name: 'orders_spread', hot: false, mixed: false },
  { name: 'orders_hot_pair', hot: true, mixed: false },
  { name: 'orders_mixed_types', hot: true, mixed: true },
];

export const exchangeSuite: Suite = {
  name: 'exchange',
  cases: CASES.map((c) => c.name),
  async run(ctx, selected, report) {
    const market = await setUpMarket(ctx, Number(process.env.BENCH_TRADERS || 64));
    for (const c of CASES) {
      if (!selected(c.name)) continue;
      // The mixed case has a pair of its own (the last), so the other cases' leftover books are not in its way.
      const pairs = c.mixed ? market.pairs.slice(-1) : c.hot ? market.pairs.slice(0, 1) : market.pairs;
      ctx.log(`exchange: ${c.name} over ${pairs.length} pair(s)...`);
      if (c.mixed) await seedBook(ctx, market, pairs[0] as string);
      const before = await tradeCount(ctx);
      const request = c.mixed ? mixedRequest(market, pairs[0] as string) : orderRequest(market, pairs);
      const measured = await measure(ctx, request);
      const trades = (await tradeCount(ctx)) - before;
      report({
        ...throughputFigures(ctx, c.name, 'orders_per_s', measured),
        // Trades made by the warm-up and the measured run together, per 2xx order of both.
        trades_per_order: Math.round((trades / Math.max(1, measured.okWithWarmup)) * 1000) / 1000,
        pairs: pairs.length,
        traders: market.traders.length,
        ...(c.mixed ? { order_types: 'limit, market, IOC, FOK, post-only' } : {}),
      });
    }
  },
};
