/**
 * The bank's reports through the API (SPEC §3, §7 Bank; DESIGN §4): stats, supply history, the audit.
 * Histories: reports.history.test.ts.
 */
import type { AuditResponse, CurrencyStatsEntry, SupplyHistoryResponse, SupplyPoint } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rebuildLedgerRollup } from '../src/modules/reports/rollup.queries.ts';
import { bankCalls } from './bank.helpers.ts';
import { createMarket, placeOk } from './exchange.helpers.ts';
import {
  balanceOf,
  call,
  eventually,
  expectLedgerBalanced,
  type Member,
  makeAppOnOwnDatabase,
  mint,
  registerMember,
  type TestApp,
  useTestApp,
} from './helpers.ts';

const t = useTestApp();
const { newCurrency, transfer, burn } = bankCalls(t);

describe('POST /api/bank/currencyStats', () => {
  it('gives signed totals per category (burns negative) and circulating per SPEC §3', async () => {
    const coin = await newCurrency({ transferTax: '0.1' });
    const a = await registerMember(t.app, 'st');
    const b = await registerMember(t.app, 'st');
    await mint(t.app, t.admin, a.nickname, coin.currencyId, '100');
    await mint(t.app, t.admin, b.nickname, coin.currencyId, '50');
    expect((await burn(a.nickname, coin.currencyId, '20')).statusCode).toBe(200);
    expect((await transfer(a, b.nickname, coin.currencyId, '10')).statusCode).toBe(200);

    const res = await call(t.app, t.admin.token, 'POST', '/api/bank/currencyStats', { currencyId: coin.currencyId });
    expect(res.statusCode, res.body).toBe(200);
    const { currencyStats, message } = res.json<{ currencyStats: CurrencyStatsEntry[]; message: string }>();
    expect(message).toEqual(expect.any(String));
    expect(currencyStats).toEqual([
      {
        _id: coin.currencyId,
        categories: [
          { category: 3, total: '9.00', count: 1 },
          { category: 4, total: '1.00', count: 1 },
          { category: 10, total: '150.00', count: 2 },
          { category: 11, total: '-20.00', count: 1 },
        ],
        totals: '140.00',
        // Mints 150 + burns (-20) - taxes 1.
        circulating: '129.00',
      },
    ]);
    // Here every tax was burned, so circulating is exactly what the members hold.
    expect(await balanceOf(t.app, a, coin.currencyId)).toBe('70');
    expect(await balanceOf(t.app, b, coin.currencyId)).toBe('59');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('filters by date range and returns every currency without a filter', async () => {
    const coin = await newCurrency();
    const other = await newCurrency();
    const a = await registerMember(t.app, 'st2');
    await mint(t.app, t.admin, a.nickname, coin.currencyId, '5');
    await mint(t.app, t.admin, a.nickname, other.currencyId, '1');
    const stats = async (body: Record<string, unknown>) =>
      (await call(t.app, t.admin.token, 'POST', '/api/bank/currencyStats', body)).json<{
        currencyStats: CurrencyStatsEntry[];
      }>().currencyStats;
    const tomorrow = new Date(Date.now() + 24 * 3600 * 1000).toISOString();
    expect(await stats({ currencyId: coin.currencyId, startDate: tomorrow })).toEqual([]);
    expect(
      await stats({ currencyId: coin.currencyId, endDate: new Date(Date.now() - 24 * 3600 * 1000).toISOString() }),
    ).toEqual([]);
    const today = await stats({ currencyId: coin.currencyId, startDate: new Date(Date.now() - 60_000).toISOString() });
    expect(today[0]?.categories).toEqual([{ category: 10, total: '5.00', count: 1 }]);
    const all = await stats({});
    // Without a filter: every currency with ledger rows (the test database's others only have rows when
    // other files ran first, so this test names its own two).
    expect(all.map((s) => s._id)).toEqual(expect.arrayContaining([coin.currencyId, other.currencyId]));
    await expectLedgerBalanced(t.app, t.admin);
  });
});

/** supplyHistory as anyone (the route is public) on the file's app or `on`; expects success. */
async function supplyHistory(body: Record<string, unknown>, on: TestApp = t): Promise<SupplyPoint[]> {
  const res = await call(on.app, undefined, 'POST', '/api/bank/supplyHistory', body);
  expect(res.statusCode, res.body).toBe(200);
  const { points, message } = res.json<SupplyHistoryResponse>();
  expect(message).toMatch(new RegExp(`^Got ${points.length} [A-Z0-9]+ supply points$`));
  return points;
}

/** The audit's row of one currency. */
async function auditOf(currencyId: number): Promise<AuditResponse['currencies'][number] | undefined> {
  return (await expectLedgerBalanced(t.app, t.admin)).currencies.find((c) => c.currencyId === currencyId);
}

const HOUR_MS = 3600 * 1000;

describe('POST /api/bank/supplyHistory', () => {
  it('ends with the audit supply and the all-time circulating, after mint, burn and a taxed transfer', async () => {
    const collector = await registerMember(t.app, 'shc');
    const coin = await newCurrency({ transferTax: '0.1', taxCollector: collector.nickname });
    const a = await registerMember(t.app, 'sha');
    const b = await registerMember(t.app, 'shb');
    await mint(t.app, t.admin, a.nickname, coin.currencyId, '100');
    await mint(t.app, t.admin, b.nickname, coin.currencyId, '50.25');
    expect((await burn(a.nickname, coin.currencyId, '20')).statusCode).toBe(200);
    // 10 sent: 9 reach b, the 1 of tax goes to the collector (still held, but not circulating).
    expect((await transfer(a, b.nickname, coin.currencyId, '10')).statusCode).toBe(200);

    const before = Date.now();
    const points = await supplyHistory({ currencyId: coin.currencyId, interval: '1h', limit: 3 });
    const after = Date.now();
    expect(points).toHaveLength(3);
    const times = points.map((p) => Date.parse(p.time));
    expect(times[1]! - times[0]!).toBe(HOUR_MS);
    expect(times[2]! - times[1]!).toBe(HOUR_MS);
    // The last bucket is the current hour, starting on the hour (UTC).
    expect(times[2]).toBeGreaterThanOrEqual(Math.floor(before / HOUR_MS) * HOUR_MS);
    expect(times[2]).toBeLessThanOrEqual(Math.floor(after / HOUR_MS) * HOUR_MS);
    // The currency is minutes old: two hours ago it had nothing.
    expect(points[0]).toEqual({ time: points[0]!.time, supply: '0.00', circulating: '0.00' });
    // Minted 150.25, burned 20: 130.25 exist; circulating also leaves out the 1 of tax.
    expect(points[2]).toMatchObject({ supply: '130.25', circulating: '129.25' });

    const audit = await auditOf(coin.currencyId);
    expect(audit).toMatchObject({ issued: '150.25', removed: '20.00', balances: '130.25', escrow: '0.00' });
    const held = [
      await balanceOf(t.app, a, coin.currencyId),
      await balanceOf(t.app, b, coin.currencyId),
      await balanceOf(t.app, collector, coin.currencyId),
    ];
    expect(held).toEqual(['70', '59.25', '1']);

    const stats = await call(t.app, t.admin.token, 'POST', '/api/bank/currencyStats', { currencyId: coin.currencyId });
    expect(stats.json<{ currencyStats: CurrencyStatsEntry[] }>().currencyStats[0]?.circulating).toBe('129.25');
  });

  it('keeps money held in escrow by an open order in the supply', async () => {
    const { pair, base } = await createMarket(t.app, t.admin);
    const seller = await registerMember(t.app, 'she');
    await mint(t.app, t.admin, seller.nickname, base.currencyId, '40');
    await placeOk(t.app, seller, pair._id, false, '15', '2');
    expect(await balanceOf(t.app, seller, base.currencyId)).toBe('25');

    const points = await supplyHistory({ currencyId: base.currencyId, interval: '1h', limit: 1 });
    expect(points).toEqual([{ time: expect.any(String), supply: '40.00', circulating: '40.00' }]);
    expect(await auditOf(base.currencyId)).toMatchObject({
      balances: '25.00',
      escrow: '15.00',
      issued: '40.00',
      removed: '0.00',
    });
  });

  it('is shared by every viewer and shows a new mint within a second (kept answers)', async () => {
    const coin = await newCurrency({});
    const a = await registerMember(t.app, 'shk');
    await mint(t.app, t.admin, a.nickname, coin.currencyId, '5');
    const body = { currencyId: coin.currencyId, interval: '1d', limit: 2 };
    expect((await supplyHistory(body)).at(-1)).toMatchObject({ supply: '5.00' });
    await mint(t.app, t.admin, a.nickname, coin.currencyId, '7');
    const res = await eventually(
      () => supplyHistory(body),
      (points) => points.at(-1)?.supply === '12.00',
    );
    expect(res.at(-1)).toMatchObject({ supply: '12.00', circulating: '12.00' });
    // Another limit is its own answer, already up to date.
    expect((await supplyHistory({ ...body, limit: 1 })).at(-1)).toMatchObject({ supply: '12.00' });
  });

  it('answers 404 for an unknown currency and 400 for a bad interval or limit', async () => {
    const unknown = await call(t.app, undefined, 'POST', '/api/bank/supplyHistory', {
      currencyId: 99999,
      interval: '1h',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Currency not found');

    const cases: Array<[Record<string, unknown>, string]> = [
      [{ currencyId: 1, interval: '5m' }, '"interval" contains an invalid value'],
      [{ currencyId: 1 }, '"interval" is required'],
      [{ currencyId: 1, interval: '1d', limit: 0 }, '"limit" contains an invalid value'],
      [{ currencyId: 1, interval: '1d', limit: 367 }, '"limit" contains an invalid value'],
      [{ currencyId: 1, interval: '1d', limit: 2.5 }, '"limit" contains an invalid value'],
      [{ interval: '1d' }, '"currencyId" is required'],
    ];
    for (const [body, message] of cases) {
      const res = await call(t.app, undefined, 'POST', '/api/bank/supplyHistory', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message, JSON.stringify(body)).toBe(message);
    }
  });
});

describe('GET /api/bank/audit', () => {
  it('reports conservation per currency to the admin', async () => {
    const res = await call(t.app, t.admin.token, 'GET', '/api/bank/audit');
    expect(res.statusCode).toBe(200);
    const audit = res.json<AuditResponse>();
    expect(audit.ok).toBe(true);
    expect(audit.message).toMatch(/^Ledger balanced( \(balances checked \d+ s ago, at .*\))?$/);
    const sd = audit.currencies.find((c) => c.currencyId === 1);
    expect(sd).toMatchObject({ ticker: 'SD', difference: '0.00', negativeBalances: 0, escrow: '0.00', ok: true });
  });
});

describe('the admin reports', () => {
  it.each([
    ['POST', '/api/bank/alltransactions', { paging: { limit: 10, page: 1 } }],
    ['POST', '/api/bank/currencyStats', {}],
    ['GET', '/api/bank/audit', undefined],
  ] as const)('%s %s answers 403 to members and 401 to visitors', async (method, url, body) => {
    const m = await registerMember(t.app, 'rep');
    expect((await call(t.app, m.token, method, url, body)).statusCode).toBe(403);
    expect((await call(t.app, undefined, method, url, body)).statusCode).toBe(401);
    expect((await call(t.app, t.admin.token, method, url, body)).statusCode).toBe(200);
  });
});

// Rewriting history trips the audit's tamper checks: on a database of its own, not the one every file shares.
describe('POST /api/bank/supplyHistory over a rewritten past', () => {
  const ownApp = useTestApp({}, { build: () => makeAppOnOwnDatabase('supply_past') });
  const own = { t: ownApp, ...bankCalls(ownApp) };

  it('places each movement in its bucket and carries the totals forward over quiet days', async () => {
    const coin = await own.newCurrency();
    const a = await registerMember(own.t.app, 'shd');
    const b = await registerMember(own.t.app, 'shd');
    await mint(own.t.app, own.t.admin, a.nickname, coin.currencyId, '100');
    await mint(own.t.app, own.t.admin, b.nickname, coin.currencyId, '50');
    // Move the two mints into the past (the API always writes "now"): a's three days ago, b's yesterday.
    // The ledger is append-only (a trigger refuses UPDATE): only a replication session, as the test's
    // superuser, may rewrite a row, and only in this transaction.
    const back = async (member: Member, hours: number) =>
      own.t.built.database.db.transaction(async (tx) => {
        await tx.execute(sql`SET LOCAL session_replication_role = replica`);
        await tx.execute(sql`SELECT pg_stat_force_next_flush()`);
        await tx.execute(sql`
          UPDATE bank_transactions SET created_at = now() - make_interval(hours => ${hours})
          WHERE currency_id = ${coin.currencyId} AND recipient_id = ${member.id}`);
      });
    await back(a, 72);
    await back(b, 24);
    // History was rewritten under the rollup: rebuild it from the ledger (as after the scale seed), which
    // also takes the audit's tamper baseline afresh.
    await rebuildLedgerRollup(own.t.built.database.db);
    expect((await own.burn(a.nickname, coin.currencyId, '20')).statusCode).toBe(200);

    const daily = await supplyHistory({ currencyId: coin.currencyId, interval: '1d', limit: 5 }, own.t);
    expect(daily.map((p) => [p.supply, p.circulating])).toEqual([
      ['0.00', '0.00'],
      ['100.00', '100.00'],
      ['100.00', '100.00'],
      ['150.00', '150.00'],
      ['130.00', '130.00'],
    ]);
    expect(Date.parse(daily[4]!.time) - Date.parse(daily[0]!.time)).toBe(4 * 24 * HOUR_MS);
    expect(daily[4]!.time).toMatch(/T00:00:00\.000Z$/);
    // A short window still counts everything before it: its first bucket starts from the full history.
    const short = await supplyHistory({ currencyId: coin.currencyId, interval: '1d', limit: 2 }, own.t);
    expect(short.map((p) => p.supply)).toEqual(['150.00', '130.00']);
    expect(short.map((p) => p.time)).toEqual(daily.slice(3).map((p) => p.time));
    // Without a limit: 200 buckets, the same last point.
    const full = await supplyHistory({ currencyId: coin.currencyId, interval: '1h' }, own.t);
    expect(full).toHaveLength(200);
    expect(full[199]).toMatchObject({ supply: '130.00', circulating: '130.00' });
    expect(full[0]).toMatchObject({ supply: '0.00', circulating: '0.00' });
    await expectLedgerBalanced(own.t.app, own.t.admin);
  });
});
