/**
 * Helpers of the ledger rollup's and the audit's tests (reports.rollup.test.ts, reports.conservation.test.ts): the full
 * scans the kept answers replaced (currency stats, supply history, candles), the audit through the API, and
 * the history both files start from, written on a database of their own.
 */
import {
  type AuditResponse,
  CANDLE_INTERVALS,
  type CandleInterval,
  CIRCULATING_ADD,
  CIRCULATING_SUBTRACT,
  type Currency,
  NEGATIVE_STAT_CATEGORIES,
  type Recipe,
  type SupplyInterval,
} from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { endOfDay } from '../src/db/date-range.ts';
import { pgArray } from '../src/db/pg-array.ts';
import { findCandles } from '../src/modules/exchange/candles.queries.ts';
import { findCategoryTotals, findSupplyHistory } from '../src/modules/reports/reports.queries.ts';
import { rebuildLedgerRollup, tickLedgerRollup } from '../src/modules/reports/rollup.queries.ts';
import { bankCalls } from './bank.helpers.ts';
import { createMarket, type Market, placeOk } from './exchange.helpers.ts';
import { call, type Member, mint, registerMember, type TestApp } from './helpers.ts';

const RULE = { add: CIRCULATING_ADD, subtract: CIRCULATING_SUBTRACT, negative: NEGATIVE_STAT_CATEGORIES };

/**
 * The scans, kept answers and audit calls of a test file's app `t` (read when called); `market()` is the
 * pair whose candles are compared.
 */
export function rollupChecks(t: TestApp, market: () => Market) {
  const db = () => t.built.database.db;
  const tick = () => tickLedgerRollup(db(), { wait: true });

  /** The full scan the kept `currencyStats` replaced: per currency and category, sum and count in the range. */
  async function scanTotals(f: { startDate?: string; endDate?: string; currencyId?: number }) {
    const where = [sql`true`];
    if (f.startDate) where.push(sql`created_at >= ${new Date(f.startDate).toISOString()}::timestamptz`);
    if (f.endDate) where.push(sql`created_at <= ${endOfDay(f.endDate)}::timestamptz`);
    if (f.currencyId !== undefined) where.push(sql`currency_id = ${f.currencyId}`);
    const res = await db().execute<{ currency_id: number; category: number; total: string; n: string }>(sql`
      SELECT currency_id, category, sum(amount)::text AS total, count(*) AS n FROM bank_transactions
      WHERE ${sql.join(where, sql` AND `)} GROUP BY 1, 2 ORDER BY 1, 2`);
    return res.rows.map((r) => `${r.currency_id}/${r.category}: ${Number(r.n)} ${Number(r.total)}`);
  }

  /** The kept answer in the same form. */
  async function keptTotals(f: { startDate?: string; endDate?: string; currencyId?: number }) {
    const rows = await findCategoryTotals(db(), f);
    return rows.map((r) => `${r.currencyId}/${r.category}: ${r.count} ${Number(r.total) / 1e9}`);
  }

  /** The full scan the kept `supplyHistory` replaced (its former query, verbatim but for its inputs). */
  async function scanSupply(currencyId: number, interval: SupplyInterval, limit: number) {
    const width = sql`${interval === '1h' ? '1 hour' : '24 hours'}::interval`;
    const epoch = sql`TIMESTAMPTZ '1970-01-01 00:00:00+00'`;
    const add = sql`${pgArray([...RULE.add])}::int[]`;
    const subtract = sql`${pgArray([...RULE.subtract])}::int[]`;
    const negative = sql`${pgArray([...RULE.negative])}::int[]`;
    const res = await db().execute<{ bucket: string | Date; supply: string; circulating: string }>(sql`
      WITH bounds AS (
        SELECT date_bin(${width}, now(), ${epoch}) AS last
      ), buckets AS (
        SELECT generate_series(last - ${limit - 1}::int * ${width}, last, ${width}) AS bucket FROM bounds
      ), signed AS (
        SELECT t.created_at, t.category, t.amount, t.sender_id, t.recipient_id, t.escrow,
               CASE WHEN t.category = ANY(${negative}) THEN -t.amount ELSE t.amount END AS stat
        FROM bank_transactions t, bounds
        WHERE t.currency_id = ${currencyId} AND t.created_at < bounds.last + ${width}
      ), moves AS (
        SELECT greatest(date_bin(${width}, created_at, ${epoch}), (SELECT min(bucket) FROM buckets)) AS bucket,
               coalesce(sum(amount) FILTER (WHERE sender_id IS NULL AND NOT escrow), 0)
                 - coalesce(sum(amount) FILTER (WHERE recipient_id IS NULL AND NOT escrow), 0) AS supply,
               coalesce(sum(stat) FILTER (WHERE category = ANY(${add})), 0)
                 - coalesce(sum(stat) FILTER (WHERE category = ANY(${subtract})), 0) AS circulating
        FROM signed GROUP BY 1
      )
      SELECT b.bucket,
             sum(coalesce(m.supply, 0)) OVER (ORDER BY b.bucket) AS supply,
             sum(coalesce(m.circulating, 0)) OVER (ORDER BY b.bucket) AS circulating
      FROM buckets b LEFT JOIN moves m ON m.bucket = b.bucket
      ORDER BY b.bucket`);
    return res.rows.map((r) => `${new Date(r.bucket).toISOString()} ${Number(r.supply)} ${Number(r.circulating)}`);
  }

  async function keptSupply(currencyId: number, interval: SupplyInterval, limit: number) {
    const rows = await findSupplyHistory(db(), currencyId, interval, limit, RULE);
    return rows.map((r) => `${r.time.toISOString()} ${Number(r.supply) / 1e9} ${Number(r.circulating) / 1e9}`);
  }

  /** The full scan the kept `getCandles` replaced: every trade of the pair grouped by bucket. */
  async function scanCandles(pairId: string, interval: CandleInterval, limit: number) {
    const widths = {
      '1m': '1 minute',
      '5m': '5 minutes',
      '15m': '15 minutes',
      '1h': '1 hour',
      '4h': '4 hours',
      '1d': '1 day',
    };
    const res = await db().execute<{
      bucket: string | Date;
      o: string;
      h: string;
      l: string;
      c: string;
      v: string;
    }>(sql`
      SELECT * FROM (
        SELECT date_bin(${widths[interval]}::interval, created_at, TIMESTAMPTZ '1970-01-01 00:00:00+00') AS bucket,
               (array_agg(price ORDER BY seq))[1] AS o, max(price) AS h, min(price) AS l,
               (array_agg(price ORDER BY seq DESC))[1] AS c, sum(amount) AS v
        FROM exchange_trades WHERE pair_id = ${pairId}
        GROUP BY bucket ORDER BY bucket DESC LIMIT ${limit}
      ) c ORDER BY bucket ASC`);
    return res.rows.map((r) => [new Date(r.bucket).toISOString(), ...[r.o, r.h, r.l, r.c, r.v].map(Number)].join(' '));
  }

  async function keptCandles(pairId: string, interval: CandleInterval, limit: number) {
    const rows = await findCandles(db(), pairId, interval, limit);
    return rows.map((r) =>
      [r.time.toISOString(), ...[r.open, r.high, r.low, r.close, r.volume].map((a) => Number(a) / 1e9)].join(' '),
    );
  }

  async function audit(full = false): Promise<AuditResponse> {
    const res = await call(t.app, t.admin.token, 'GET', `/api/bank/audit${full ? '?full=true' : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<AuditResponse>();
  }

  const check = (a: AuditResponse, name: string) => a.checks.find((c) => c.name === name);

  /** Date ranges as the admin's panel sends them (whole days) and as an API client may (instants). */
  function ranges(ids: number[]) {
    const now = Date.now();
    const day = (d: number) => new Date(now - d * 86_400_000).toISOString().slice(0, 10);
    const list: Array<{ startDate?: string; endDate?: string; currencyId?: number }> = [
      {},
      { startDate: day(0) },
      { endDate: day(1) },
      { startDate: day(3), endDate: day(1) },
      { startDate: day(9), endDate: day(0) },
      { startDate: day(30), endDate: day(0) },
      { startDate: new Date(now - 5_400_000 - 123).toISOString(), endDate: new Date(now + 60_000).toISOString() },
      { startDate: new Date(now - 2.5 * 86_400_000).toISOString(), endDate: new Date(now - 7_300_000).toISOString() },
      { startDate: day(-2) },
      // Within the hours whose minutes the rollup keeps: inside one hour, across an hour's end, at the floor.
      { startDate: new Date(now - 1_200_000 - 7).toISOString(), endDate: new Date(now - 180_000).toISOString() },
      { startDate: new Date(now - 5_000_000).toISOString(), endDate: new Date(now - 2_500_000).toISOString() },
      {
        startDate: new Date(now - 47.6 * 3_600_000).toISOString(),
        endDate: new Date(now - 45.1 * 3_600_000).toISOString(),
      },
    ];
    return [...list, ...ids.flatMap((currencyId) => list.slice(0, 6).map((r) => ({ ...r, currencyId })))];
  }

  /** Asserts every kept answer equals its full scan, for `currencies`. */
  async function expectKeptEqualsScan(currencies: number[]) {
    for (const r of ranges(currencies)) expect(await keptTotals(r), JSON.stringify(r)).toEqual(await scanTotals(r));
    for (const c of currencies) {
      for (const [interval, limit] of [
        ['1h', 1],
        ['1h', 30],
        ['1h', 366],
        ['1d', 1],
        ['1d', 5],
        ['1d', 366],
      ] as const) {
        expect(await keptSupply(c, interval, limit), `${c} ${interval} ${limit}`).toEqual(
          await scanSupply(c, interval, limit),
        );
      }
    }
    for (const interval of CANDLE_INTERVALS) {
      for (const limit of [1, 3, 200, 1000]) {
        expect(await keptCandles(market().pair._id, interval, limit), `${interval} ${limit}`).toEqual(
          await scanCandles(market().pair._id, interval, limit),
        );
      }
    }
    const incremental = await audit();
    const full = await audit(true);
    expect(full.currencies).toEqual(incremental.currencies);
    expect(incremental.ok, JSON.stringify(incremental.checks)).toBe(true);
    expect(full.ok, JSON.stringify(full.checks)).toBe(true);
    expect(full.mode).toBe('full');
    expect(incremental.mode).toBe('incremental');
  }

  return {
    db,
    tick,
    scanTotals,
    keptTotals,
    scanSupply,
    keptSupply,
    scanCandles,
    keptCandles,
    audit,
    check,
    ranges,
    expectKeptEqualsScan,
  };
}

/** What the history was written for: two currencies, four members, an exchange pair and a forge recipe. */
export interface RollupHistory {
  coin: Currency;
  taxed: Currency;
  market: Market;
  recipe: Recipe;
  members: Member[];
}

/**
 * Writes the history a file starts from (call it in `beforeAll`): ten days of bank rows and trades at past
 * times, as the scale seed writes them, with the balances they leave, then the rollup rebuilt.
 */
export async function seedRollupHistory(t: TestApp): Promise<RollupHistory> {
  const bank = bankCalls(t);
  const db = () => t.built.database.db;
  const members: Member[] = [];
  const coin = await bank.newCurrency({ name: 'Rollup Coin', precision: 2 });
  for (let i = 0; i < 4; i++) members.push(await registerMember(t.app, 'rol'));
  const taxed = await bank.newCurrency({
    name: 'Rollup Taxed',
    precision: 3,
    transferTax: '0.015',
    taxCollector: members[3]!.nickname,
  });
  const market = await createMarket(t.app, t.admin, { fee: '0.01' });
  const res = await call(t.app, t.admin.token, 'POST', '/api/forge/recipes/create', {
    name: 'Rollup smelt',
    description: 'Turns coin into taxed coin over an hour',
    imgUrl: 'https://example.com/smelt.png',
    timeRequired: 3600,
    input: { currencyId: coin.currencyId, amount: '2.5' },
    output: { currencyId: taxed.currencyId, amount: 1 },
  });
  expect(res.statusCode, res.body).toBe(200);
  const recipe = res.json<{ recipe: Recipe }>().recipe;
  // Ten days of history, as the scale seed writes it: mints, transfers and burns between the members at
  // past times, balances set to what the rows say, then the rollup rebuilt from the ledger.
  const ids = pgArray(members.slice(0, 3).map((m) => m.id));
  await db().execute(sql`
    INSERT INTO bank_transactions (id, created_at, category, currency_id, amount, executor_id, sender_id, recipient_id, note)
    SELECT 'e' || lpad(to_hex(c), 3, '0') || lpad(to_hex(i), 20, '0'), now() - make_interval(secs => (i * 7919) % 864000 + 60),
           CASE i % 3 WHEN 0 THEN 10 WHEN 1 THEN 3 ELSE 11 END, c, (i % 50 + 1)::numeric / 4,
           NULL,
           CASE i % 3 WHEN 0 THEN NULL ELSE (${ids}::text[])[1 + i % 2] END,
           CASE i % 3 WHEN 0 THEN (${ids}::text[])[1 + i % 2] WHEN 1 THEN (${ids}::text[])[3] ELSE NULL END,
           'history'
    FROM generate_series(1, 3000) AS i, unnest(${pgArray([coin.currencyId, taxed.currencyId])}::int[]) AS c`);
  // And a busy last three hours (a row about every 11 s per currency), so each minute counts.
  await db().execute(sql`
    INSERT INTO bank_transactions (id, created_at, category, currency_id, amount, executor_id, sender_id, recipient_id, note)
    SELECT 'a' || lpad(to_hex(c), 3, '0') || lpad(to_hex(i), 20, '0'), now() - make_interval(secs => (i * 7919) % 10800 + 30.5),
           CASE i % 3 WHEN 0 THEN 10 WHEN 1 THEN 3 ELSE 11 END, c, (i % 50 + 1)::numeric / 4,
           NULL,
           CASE i % 3 WHEN 0 THEN NULL ELSE (${ids}::text[])[1 + i % 2] END,
           CASE i % 3 WHEN 0 THEN (${ids}::text[])[1 + i % 2] WHEN 1 THEN (${ids}::text[])[3] ELSE NULL END,
           'history'
    FROM generate_series(1, 1000) AS i, unnest(${pgArray([coin.currencyId, taxed.currencyId])}::int[]) AS c`);
  // The mints (every third row) are 1.5x the debits of each sender, so no balance goes below zero.
  await db().execute(sql`
    INSERT INTO bank_transactions (id, created_at, category, currency_id, amount, sender_id, recipient_id, note)
    SELECT 'd' || lpad(to_hex(c), 3, '0') || lpad(to_hex(i), 20, '0'), now() - interval '11 days', 10, c, 10000, NULL, (${ids}::text[])[1 + i], 'opening'
    FROM generate_series(0, 1) AS i, unnest(${pgArray([coin.currencyId, taxed.currencyId])}::int[]) AS c`);
  await db().execute(sql`
    INSERT INTO balances (user_id, currency_id, amount)
    SELECT u, currency_id, sum(d) FROM (
      SELECT recipient_id AS u, currency_id, amount AS d FROM bank_transactions WHERE note IN ('history', 'opening') AND recipient_id IS NOT NULL
      UNION ALL
      SELECT sender_id, currency_id, -amount FROM bank_transactions WHERE note IN ('history', 'opening') AND sender_id IS NOT NULL) x
    GROUP BY u, currency_id
    ON CONFLICT (user_id, currency_id) DO UPDATE SET amount = balances.amount + EXCLUDED.amount`);
  // Ten days of trades on the pair between two resting orders, their seqs out of time order, as a busy
  // market's history (trades move no money: the orders' escrow is untouched).
  const maker = await registerMember(t.app, 'rol');
  await mint(t.app, t.admin, maker.nickname, market.base.currencyId, '10');
  await mint(t.app, t.admin, maker.nickname, market.quote.currencyId, '10');
  const sell = await placeOk(t.app, maker, market.pair._id, false, '1', '1000');
  const buy = await placeOk(t.app, maker, market.pair._id, true, '1', '1');
  await db().execute(sql`
    INSERT INTO exchange_trades (id, pair_id, buy_order_id, sell_order_id, taker_buy_side, price, amount, cost,
                                 buyer_fee, seller_fee, created_at)
    SELECT 'f' || lpad(to_hex(i), 23, '0'), ${market.pair._id}, ${buy.order._id}, ${sell.order._id}, i % 2 = 0,
           (i * 37 % 500 + 1)::numeric / 100, (i % 7 + 1)::numeric / 10, 1, 0, 0,
           now() - make_interval(secs => (i * 6007) % 864000 + 30)
    FROM generate_series(1, 4000) AS i`);
  await rebuildLedgerRollup(db());
  return { coin, taxed, market, recipe, members };
}
