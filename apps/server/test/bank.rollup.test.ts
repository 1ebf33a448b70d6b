/**
 * The ledger rollup and the incremental audit (issue 19 §2 Stats, The audit; §4): after random postings
 * through the API (taxed transfers, mints, burns, distributions, orders and trades, forge), some landing
 * while a tick runs or while a posting transaction stays open across ticks, the kept currency stats and
 * supply history equal the full scans they replaced, the incremental audit equals the full recount, and
 * the audit still finds a tampered balance, a changed ledger row and a backdated one; the conservation
 * check stored by the audit-check job equals one taken live and answers only while it is still true. On
 * a database of its own: the tampering must not reach the files that share the test database.
 */
import {
  type AuditResponse,
  amount,
  CANDLE_INTERVALS,
  type CandleInterval,
  CIRCULATING_ADD,
  CIRCULATING_SUBTRACT,
  type Currency,
  NEGATIVE_STAT_CATEGORIES,
  parseAmount,
  type Recipe,
  type SupplyInterval,
} from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { endOfDay } from '../src/db/date-range.ts';
import { pgArray } from '../src/db/pg-array.ts';
import { newObjectId } from '../src/lib/ids.ts';
import { takeCheck, tickAuditCheck } from '../src/modules/bank/audit.check.ts';
import { findCategoryTotals, findSupplyHistory } from '../src/modules/bank/reports.queries.ts';
import { rebuildLedgerRollup, tickLedgerRollup } from '../src/modules/bank/rollup.queries.ts';
import { findCandles } from '../src/modules/exchange/candles.queries.ts';
import { postEntries } from '../src/modules/ledger/ledger.posting.ts';
import { bankCalls } from './bank.helpers.ts';
import { createMarket, type Market, placeOk } from './exchange.helpers.ts';
import {
  call,
  expectLedgerBalanced,
  type Member,
  makeAppOnOwnDatabase,
  mint,
  registerMember,
  useTestApp,
} from './helpers.ts';

const t = useTestApp({}, { build: () => makeAppOnOwnDatabase('rollup') });
const bank = bankCalls(t);
const db = () => t.built.database.db;
const tick = () => tickLedgerRollup(db(), { wait: true });
const RULE = { add: CIRCULATING_ADD, subtract: CIRCULATING_SUBTRACT, negative: NEGATIVE_STAT_CATEGORIES };

/** The full scan `currencyStats` ran before issue 19: per currency and category, sum and count in the range. */
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

/** The full scan `supplyHistory` ran before issue 19 (issue 17's query, verbatim but for its inputs). */
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

/** The full scan `getCandles` ran before issue 19: every trade of the pair grouped by bucket. */
async function scanCandles(pairId: string, interval: CandleInterval, limit: number) {
  const widths = {
    '1m': '1 minute',
    '5m': '5 minutes',
    '15m': '15 minutes',
    '1h': '1 hour',
    '4h': '4 hours',
    '1d': '1 day',
  };
  const res = await db().execute<{ bucket: string | Date; o: string; h: string; l: string; c: string; v: string }>(sql`
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
      expect(await keptCandles(market.pair._id, interval, limit), `${interval} ${limit}`).toEqual(
        await scanCandles(market.pair._id, interval, limit),
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

let coin: Currency;
let taxed: Currency;
let market: Market;
let recipe: Recipe;
const members: Member[] = [];

beforeAll(async () => {
  coin = await bank.newCurrency({ name: 'Rollup Coin', precision: 2 });
  for (let i = 0; i < 4; i++) members.push(await registerMember(t.app, 'rol'));
  taxed = await bank.newCurrency({
    name: 'Rollup Taxed',
    precision: 3,
    transferTax: '0.015',
    taxCollector: members[3]!.nickname,
  });
  market = await createMarket(t.app, t.admin, { fee: '0.01' });
  const res = await call(t.app, t.admin.token, 'POST', '/api/forge/recipes/create', {
    name: 'Rollup smelt',
    description: 'Turns coin into taxed coin over an hour',
    imgUrl: 'https://example.com/smelt.png',
    timeRequired: 3600,
    input: { currencyId: coin.currencyId, amount: '2.5' },
    output: { currencyId: taxed.currencyId, amount: 1 },
  });
  expect(res.statusCode, res.body).toBe(200);
  recipe = res.json<{ recipe: Recipe }>().recipe;
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
});

/** One random operation through the API; `rnd` in [0, 1). */
async function randomPosting(rnd: () => number) {
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const [a, b] = [pick(members.slice(0, 3)), pick(members.slice(0, 3))];
  const value = (Math.floor(rnd() * 400) + 1) / 100;
  switch (Math.floor(rnd() * 7)) {
    case 0:
      await mint(t.app, t.admin, a.nickname, pick([coin, taxed]).currencyId, String(value));
      return;
    case 1:
      await bank.burn(a.nickname, pick([coin, taxed]).currencyId, String(value / 2));
      return;
    case 2:
      if (a !== b) await bank.transfer(a, b.nickname, pick([coin, taxed]).currencyId, String(value));
      return;
    case 3: {
      const res = await call(t.app, a.token, 'POST', '/api/bank/distributeCurrency', {
        currencyId: coin.currencyId,
        amount: String(Math.ceil(value) * 3),
        targetCurrencyId: taxed.currencyId,
      });
      expect([200, 409, 400]).toContain(res.statusCode);
      return;
    }
    case 4: {
      const seller = a;
      const buyer = b === a ? members[(members.indexOf(a) + 1) % 3]! : b;
      await mint(t.app, t.admin, seller.nickname, market.base.currencyId, '5');
      await mint(t.app, t.admin, buyer.nickname, market.quote.currencyId, '20');
      await placeOk(t.app, seller, market.pair._id, false, '2', '3');
      await placeOk(t.app, buyer, market.pair._id, true, String(1 + Math.floor(rnd() * 3)), '3');
      return;
    }
    case 5: {
      const res = await call(t.app, a.token, 'POST', '/api/forge/startProcess', { recipeId: recipe._id, quantity: 1 });
      expect(res.statusCode, res.body).toBe(200);
      const processId = res.json<{ process: { _id: string } }>().process._id;
      if (rnd() < 0.5) {
        const end = await call(t.app, a.token, 'POST', '/api/forge/endProcess', { processId, cancel: true });
        expect(end.statusCode, end.body).toBe(200);
      }
      return;
    }
    default:
      await tick();
  }
}

/** A deterministic generator (mulberry32), so a failure replays. */
function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

describe('the ledger rollup', () => {
  it('keeps stats, supply history and the audit equal to full scans through random postings and ticks', async () => {
    const ids = [coin.currencyId, taxed.currencyId, market.base.currencyId, market.quote.currencyId];
    await expectKeptEqualsScan(ids);
    const rnd = seeded(19);
    for (let round = 0; round < 4; round++) {
      // Postings one after another with ticks among them, then postings while a tick runs.
      for (let i = 0; i < 12; i++) await randomPosting(rnd);
      await Promise.all([tick(), randomPosting(rnd), randomPosting(rnd), tick()]);
      await expectKeptEqualsScan(ids);
      await tick();
      await expectKeptEqualsScan(ids);
    }
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('counts a posting whose transaction stays open across ticks exactly once', async () => {
    const before = await scanTotals({ currencyId: coin.currencyId });
    let release: () => void = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    let posted: () => void = () => {};
    const written = new Promise<void>((r) => {
      posted = r;
    });
    // A mint written in a transaction that commits only after later postings and two ticks.
    let started = '';
    const open = db().transaction(async (tx) => {
      started = (await tx.execute<{ s: string }>(sql`SELECT now()::text AS s`)).rows[0]!.s;
      await postEntries(tx, [
        {
          category: 10,
          currencyId: coin.currencyId,
          amount: amount(7_000_000_000n),
          executorId: t.admin.id,
          senderId: null,
          recipientId: members[0]!.id,
          note: 'held open',
        },
      ]);
      posted();
      await held;
    });
    await written;
    await bank.transfer(members[1]!, members[2]!.nickname, coin.currencyId, '1');
    const during = await tick();
    await tick();
    // The watermark waits at the open transaction's start: its row, stamped then, is not yet counted.
    const startedAt = (
      await db().execute<{ ms: string }>(sql`SELECT (extract(epoch FROM ${started}::timestamptz) * 1000)::text AS ms`)
    ).rows[0]!.ms;
    expect(during?.watermark.getTime()).toBeLessThanOrEqual(Math.ceil(Number(startedAt)));
    release();
    await open;
    await tick();
    const after = await scanTotals({ currencyId: coin.currencyId });
    expect(after).not.toEqual(before);
    await expectKeptEqualsScan([coin.currencyId]);
  });

  it('rebuilds to the same rollup it kept', async () => {
    await tick();
    const rows = async () =>
      (
        await db().execute<{ r: string }>(sql`
          SELECT concat_ws(' ', grain, bucket, currency_id, category, n, total, issued, removed, escrow_in, escrow_out) AS r
          FROM ledger_rollup ORDER BY grain, bucket, currency_id, category`)
      ).rows.map((x) => x.r);
    // Nothing posts meanwhile in this file: the kept rollup and the one rebuilt from scratch hold the same rows.
    const kept = await rows();
    await rebuildLedgerRollup(db());
    expect(await rows()).toEqual(kept);
    expect(kept.filter((r) => r.startsWith('day ')).length).toBeGreaterThanOrEqual(11);
    await expectKeptEqualsScan([coin.currencyId, taxed.currencyId]);
  });
});

/** A conservation check taken now, at one snapshot, as the job takes it (not stored). */
async function liveCheck() {
  return (await db().transaction((tx) => takeCheck(tx, 'kept'), { isolationLevel: 'repeatable read' })).check;
}

describe('the stored conservation check', () => {
  it('equals a check taken live on a quiet database, and the audit answers from it with its time', async () => {
    await tick();
    const stored = await tickAuditCheck(db(), { wait: true });
    expect(stored).toBeDefined();
    expect(await liveCheck()).toEqual({ ...stored, checkedAt: expect.any(Date) });
    const incremental = await audit();
    expect(incremental.ok, JSON.stringify(incremental.checks)).toBe(true);
    // Answered from a stored check (the job may have stored a later one meanwhile: never an earlier one).
    expect(incremental.message).toMatch(/^Ledger balanced \(balances checked \d+ s ago, at \d{4}-.*Z\)$/);
    expect(Date.parse(incremental.checkedAt)).toBeGreaterThanOrEqual(stored!.checkedAt.getTime());
    const full = await audit(true);
    expect(full.ok, JSON.stringify(full.checks)).toBe(true);
    expect(full.message).toBe('Ledger balanced');
    expect(full.currencies).toEqual(incremental.currencies);
  });

  it('is not used once money moved after it: the audit checks the balances of now', async () => {
    await tickAuditCheck(db(), { wait: true });
    const before = (await audit()).currencies.find((c) => c.currencyId === coin.currencyId)!;
    const posted = Date.now();
    await mint(t.app, t.admin, members[3]!.nickname, coin.currencyId, '2.5');
    const after = await audit();
    expect(after.message).toBe('Ledger balanced');
    expect(Date.parse(after.checkedAt)).toBeGreaterThanOrEqual(posted - 1000);
    const entry = after.currencies.find((c) => c.currencyId === coin.currencyId)!;
    expect(parseAmount(entry.balances)! - parseAmount(before.balances)!).toBe(parseAmount('2.5'));
    expect(parseAmount(entry.issued)! - parseAmount(before.issued)!).toBe(parseAmount('2.5'));
    // Admins asking at once after a posting share live checks, each taken after they asked.
    await mint(t.app, t.admin, members[3]!.nickname, coin.currencyId, '1');
    const together = await Promise.all(Array.from({ length: 8 }, () => audit()));
    for (const a of together) {
      expect(a.ok).toBe(true);
      const c = a.currencies.find((x) => x.currencyId === coin.currencyId)!;
      expect(parseAmount(c.issued)! - parseAmount(entry.issued)!).toBe(parseAmount('1'));
    }
    // The full recount stores its figures as the latest check, which then answers.
    const full = await audit(true);
    const next = await audit();
    expect(next.message).toMatch(/^Ledger balanced \(balances checked \d+ s ago/);
    expect(Date.parse(next.checkedAt)).toBeGreaterThanOrEqual(Date.parse(full.checkedAt));
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('is not used when it is older than the bound (the job is not running)', async () => {
    await tickAuditCheck(db(), { wait: true });
    await db().execute(sql`UPDATE audit_check SET checked_at = checked_at - interval '10 minutes' WHERE id = 1`);
    const a = await audit();
    expect(a.message).toBe('Ledger balanced');
    expect(Date.now() - Date.parse(a.checkedAt)).toBeLessThan(60_000);
  });
});

describe('the audit finds tampering', () => {
  it('finds a balance changed in the database: the full recount at once, the incremental audit from the next check', async () => {
    const target = members[1]!;
    await tickAuditCheck(db(), { wait: true });
    await db().execute(
      sql`UPDATE balances SET amount = amount + 1 WHERE user_id = ${target.id} AND currency_id = ${coin.currencyId}`,
    );
    // A check taken now sees it; the stored one (no ledger row changed) until the job takes the next.
    const now = await liveCheck();
    const c = now.currencies.find((x) => x.currencyId === coin.currencyId)!;
    expect(c.balances + c.escrow - (c.issued - c.removed)).toBe(parseAmount('1'));
    const checked = await tickAuditCheck(db(), { wait: true });
    expect(checked).toEqual({ ...now, checkedAt: expect.any(Date) });
    for (const a of [await audit(), await audit(true)]) {
      expect(a.ok).toBe(false);
      expect(a.message).toBe('Ledger NOT balanced');
      expect(a.currencies.find((c) => c.currencyId === coin.currencyId)).toMatchObject({
        difference: '1.00',
        ok: false,
      });
    }
    // The full recount finds it at once, without waiting for the job.
    await db().execute(
      sql`UPDATE balances SET amount = amount - 1 WHERE user_id = ${target.id} AND currency_id = ${coin.currencyId}`,
    );
    await tickAuditCheck(db(), { wait: true });
    await db().execute(
      sql`UPDATE balances SET amount = amount + 1 WHERE user_id = ${target.id} AND currency_id = ${coin.currencyId}`,
    );
    const full = await audit(true);
    expect(full.ok).toBe(false);
    expect(full.currencies.find((c) => c.currencyId === coin.currencyId)).toMatchObject({ difference: '1.00' });
    await db().execute(
      sql`UPDATE balances SET amount = amount - 1 WHERE user_id = ${target.id} AND currency_id = ${coin.currencyId}`,
    );
    // A check that found a difference is not trusted: the audit takes one now, which is clean again.
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('finds money moved between two balances without a ledger row in the full recount', async () => {
    const [from, to] = [members[0]!, members[2]!];
    const move = (x: number) =>
      db().execute(sql`
        UPDATE balances SET amount = amount + CASE user_id WHEN ${to.id} THEN ${x}::numeric ELSE ${-x}::numeric END
        WHERE user_id IN (${from.id}, ${to.id}) AND currency_id = ${coin.currencyId}`);
    await move(3);
    // Conservation still holds: only the full recount, member by member, sees it.
    expect((await audit()).ok).toBe(true);
    const full = await audit(true);
    expect(full.ok).toBe(false);
    expect(full.currencies.every((c) => c.ok)).toBe(true);
    expect(check(full, 'balances')).toMatchObject({ ok: false });
    expect(check(full, 'balances')?.detail).toMatch(/^2 balances differ from their ledger rows/);
    await move(-3);
    expect(check(await audit(true), 'balances')).toMatchObject({ ok: true });
    await expectLedgerBalanced(t.app, t.admin);
  });

  /** Runs `work` on the ledger with its append-only trigger disabled, as an intruder with the owner's rights would. */
  async function withTriggerOff(work: string) {
    await db().transaction(async (tx) => {
      await tx.execute(sql`ALTER TABLE bank_transactions DISABLE TRIGGER bank_transactions_no_update_delete`);
      await tx.execute(sql.raw(work));
      await tx.execute(sql`ALTER TABLE bank_transactions ENABLE TRIGGER bank_transactions_no_update_delete`);
      // The statistics reach the shared counters when this session next flushes (within seconds otherwise).
      await tx.execute(sql`SELECT pg_stat_force_next_flush()`);
    });
  }

  it('finds an old ledger row changed with the trigger disabled, though the sums still balance', async () => {
    await tick();
    // A transfer between two members: changing its amount moves nothing issued or removed.
    const row = (
      await db().execute<{ id: string; amount: string }>(sql`
        SELECT id, amount::text AS amount FROM bank_transactions
        WHERE category = 3 AND note = 'history' AND currency_id = ${coin.currencyId} ORDER BY created_at LIMIT 1`)
    ).rows[0]!;
    await withTriggerOff(`UPDATE bank_transactions SET amount = amount + 5 WHERE id = '${row.id}'`);
    const incremental = await audit();
    expect(incremental.currencies.every((c) => c.ok)).toBe(true);
    expect(incremental.ok).toBe(false);
    expect(check(incremental, 'ledger changes')).toMatchObject({ ok: false });
    expect(check(incremental, 'ledger changes')?.detail).toMatch(/^1 ledger rows updated and 0 deleted since/);
    expect(incremental.message).toMatch(/^Ledger NOT balanced: check ledger changes( \(balances checked .*\))?$/);
    const full = await audit(true);
    expect(full.ok).toBe(false);
    expect(check(full, 'rollup')).toMatchObject({ ok: false });
    expect(check(full, 'rollup')?.detail).toMatch(/^3 rollup buckets differ from the ledger/);
    // The row's new version lies after the job's last position, stamped in the past: seen as backdated too.
    await tick();
    expect(check(await audit(), 'backdated rows')).toMatchObject({ ok: false });
    // Put back: the full recount finds the rollup equal to the ledger again and clears the tripwires.
    await withTriggerOff(`UPDATE bank_transactions SET amount = ${row.amount} WHERE id = '${row.id}'`);
    await tick();
    expect((await audit()).ok).toBe(false);
    expect((await audit(true)).ok).toBe(true);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('finds a disabled append-only trigger', async () => {
    await db().execute(sql`ALTER TABLE bank_transactions DISABLE TRIGGER bank_transactions_no_truncate`);
    try {
      const a = await audit();
      expect(a.ok).toBe(false);
      expect(check(a, 'append-only triggers')).toEqual({
        name: 'append-only triggers',
        ok: false,
        detail: 'Disabled: bank_transactions_no_truncate',
      });
    } finally {
      await db().execute(sql`ALTER TABLE bank_transactions ENABLE TRIGGER bank_transactions_no_truncate`);
    }
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('finds a ledger row inserted with a time below the watermark', async () => {
    await tick();
    const id = newObjectId();
    // A transfer between two members dated yesterday, with its balances: the sums still balance.
    await db().transaction(async (tx) => {
      await tx.execute(sql`
        INSERT INTO bank_transactions (id, created_at, category, currency_id, amount, sender_id, recipient_id, note)
        VALUES (${id}, now() - interval '1 day', 3, ${coin.currencyId}, 1, ${members[0]!.id}, ${members[1]!.id}, 'backdated')`);
      await tx.execute(sql`
        UPDATE balances SET amount = amount + CASE user_id WHEN ${members[1]!.id} THEN 1 ELSE -1 END
        WHERE user_id IN (${members[0]!.id}, ${members[1]!.id}) AND currency_id = ${coin.currencyId}`);
    });
    await tick();
    const incremental = await audit();
    expect(incremental.currencies.every((c) => c.ok)).toBe(true);
    expect(check(incremental, 'backdated rows')).toEqual({
      name: 'backdated rows',
      ok: false,
      detail: `1 ledger rows were stored with a time below the rollup watermark (inserted backdated or rewritten; first: ${id}): run the full recount`,
    });
    const full = await audit(true);
    expect(check(full, 'rollup')).toMatchObject({ ok: false });
    // Once the row is accepted as history, a rebuild takes it in and the audit is clean again.
    await rebuildLedgerRollup(db());
    await expectKeptEqualsScan([coin.currencyId]);
    await expectLedgerBalanced(t.app, t.admin);
  });
});
