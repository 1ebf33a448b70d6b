/**
 * CSV exports (DESIGN §11.6) through the API: a member's own history and the admin's Tnx Logs round-trip
 * through a CSV parser with hostile notes (commas, quotes, line breaks, formulas, emoji), a header row,
 * spreadsheet safety, filters as query parameters (bad ones refused), single-use download links that
 * last 60 seconds, roles, and the per-member rate limit.
 */
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bankCalls } from './bank.helpers.ts';
import { call, expectLedgerBalanced, type Member, mint, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();
const { transfer } = bankCalls(t);

/** Notes a spreadsheet or a naive CSV writer would trip on. */
const HOSTILE = [
  'rent, March "half"',
  'line one\nline two\r\nline three',
  '=1+1',
  '@SUM(A1:A9)',
  '+cmd|calc',
  '-2+3',
  '\tTabbed',
  'Café 🚀 über ✨',
];

/** What a spreadsheet-safe cell holds for a note (DESIGN §11.6: a `'` before =, +, -, @, tab, CR). */
const safe = (v: string) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v);

const HEADER = [
  'Date (UTC)',
  'Id',
  'Category',
  'Currency',
  'Amount',
  'Sender',
  'Recipient',
  'Executor',
  'Note',
  'Reference',
];

/** A GET of an export with the member's bearer token. */
function getCsv(member: Member, url: string) {
  return call(t.app, member.token, 'GET', url);
}

/** The records of a CSV body, the header first, checked as RFC 4180 by the parser (strict quotes). */
function records(body: string): string[][] {
  return parse(body, { relax_quotes: false, relax_column_count: false, record_delimiter: '\r\n' }) as string[][];
}

/** A asks for a download link to `path` with `query`. */
async function linkFor(member: Member, path: string, query?: Record<string, string>) {
  const res = await call(t.app, member.token, 'POST', '/api/exports/link', { path, ...(query ? { query } : {}) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ url: string; expiresAt: string }>();
}

describe('GET /api/bank/transactions.csv', () => {
  /** A gets a mint and sends B one transfer per hostile note; C sends B one. */
  async function scene() {
    const a = await registerMember(t.app, 'ca');
    const b = await registerMember(t.app, 'cb');
    const c = await registerMember(t.app, 'cc');
    await mint(t.app, t.admin, a.nickname, 2, '100');
    await mint(t.app, t.admin, c.nickname, 2, '10');
    for (const note of HOSTILE) {
      const res = await transfer(a, b.nickname, 2, '1.5', { note });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect((await transfer(c, b.nickname, 2, '2', { note: 'from c' })).statusCode).toBe(200);
    return { a, b, c };
  }

  it('streams the member own rows as CSV that round-trips, header first, cells made safe', async () => {
    const { a, b, c } = await scene();
    const res = await getCsv(b, '/api/bank/transactions.csv');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="transactions-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.body).toContain('\r\n');
    const [header, ...rows] = records(res.body);
    expect(header).toEqual(HEADER);
    // Newest first: C's transfer, then A's in reverse order of sending.
    expect(rows.map((r) => r[8])).toEqual(['from c', ...[...HOSTILE].reverse().map(safe)]);
    expect(rows.every((r) => r[6] === b.nickname && r[2] === 'Transfer' && r[3] === 'SN')).toBe(true);
    expect(rows.map((r) => r[5])).toEqual([c.nickname, ...HOSTILE.map(() => a.nickname)]);
    expect(rows.every((r) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(r[0] ?? ''))).toBe(true);
    // The same rows as the member's list, in the same order.
    const list = await call(t.app, b.token, 'POST', '/api/bank/transactions', { paging: { limit: 50, page: 1 } });
    const txs = list.json<{ txs: Array<{ _id: string; balance: { amount: string } }> }>().txs;
    expect(rows.map((r) => r[1])).toEqual(txs.map((x) => x._id));
    expect(rows.map((r) => r[4])).toEqual(txs.map((x) => x.balance.amount));
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('never holds another member rows, whatever the filters', async () => {
    const { a, b, c } = await scene();
    const [, ...rowsC] = records((await getCsv(c, '/api/bank/transactions.csv')).body);
    expect(rowsC.length).toBe(2);
    expect(rowsC.flat().some((cell) => cell === a.nickname)).toBe(false);
    // C asking for rows with A: none of A's rows with B show.
    const [, ...withA] = records((await getCsv(c, `/api/bank/transactions.csv?nickname=${a.nickname}`)).body);
    expect(withA).toEqual([]);
    const [, ...withB] = records((await getCsv(c, `/api/bank/transactions.csv?nickname=${b.nickname}`)).body);
    expect(withB.map((r) => r[8])).toEqual(['from c']);
  });

  it('takes the list filters as query parameters', async () => {
    const { a, b } = await scene();
    const [, ...fromA] = records((await getCsv(b, `/api/bank/transactions.csv?nickname=${a.nickname}`)).body);
    expect(fromA.length).toBe(HOSTILE.length);
    const [, ...mints] = records((await getCsv(a, '/api/bank/transactions.csv?category=10&currencyId=2')).body);
    expect(mints.map((r) => [r[2], r[4]])).toEqual([['Mint', '100.00']]);
    const [, ...future] = records((await getCsv(a, '/api/bank/transactions.csv?startDate=2999-01-01')).body);
    expect(future).toEqual([]);
    const [header, ...empty] = records((await getCsv(b, '/api/bank/transactions.csv?nickname=nobody0here')).body);
    expect(header).toEqual(HEADER);
    expect(empty).toEqual([]);
  });

  it('refuses bad filters with a clear message, before any row', async () => {
    const m = await registerMember(t.app, 'cf');
    const cases: Array<[string, string]> = [
      ['?colour=red', '"colour" is not allowed'],
      ['?startDate=2026-05-02&endDate=2026-05-01', 'The end date must not be before the start date'],
      ['?startDate=yesterday', '"startDate" contains an invalid value'],
      ['?category=abc', '"category" contains an invalid value'],
    ];
    for (const [query, message] of cases) {
      const res = await getCsv(m, `/api/bank/transactions.csv${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json<{ message: string }>().message, query).toBe(message);
    }
    // The same day as start and end is a range, not upside down.
    expect((await getCsv(m, '/api/bank/transactions.csv?startDate=2026-05-01&endDate=2026-05-01')).statusCode).toBe(
      200,
    );
  });

  it('needs a signed-in member', async () => {
    const res = await call(t.app, undefined, 'GET', '/api/bank/transactions.csv');
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/bank/alltransactions.csv', () => {
  it('streams every member rows for an admin, with the Tnx Logs filters', async () => {
    const a = await registerMember(t.app, 'da');
    const b = await registerMember(t.app, 'db');
    await mint(t.app, t.admin, a.nickname, 2, '50');
    expect((await transfer(a, b.nickname, 2, '5', { note: '=HYPERLINK("x")' })).statusCode).toBe(200);
    const res = await getCsv(t.admin, `/api/bank/alltransactions.csv?nickname=${a.nickname}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/filename="all-transactions-/);
    const [header, ...rows] = records(res.body);
    expect(header).toEqual(HEADER);
    // A's transfer (and its tax, if SN is taxed) and A's mint, as the admin's list shows them.
    const list = await call(t.app, t.admin.token, 'POST', '/api/bank/alltransactions', {
      paging: { limit: 50, page: 1 },
      nickname: a.nickname,
    });
    expect(rows.map((r) => r[1])).toEqual(list.json<{ txs: Array<{ _id: string }> }>().txs.map((x) => x._id));
    expect(rows.find((r) => r[2] === 'Transfer')?.[8]).toBe(`'=HYPERLINK("x")`);
    expect(rows.at(-1)?.slice(2, 8)).toEqual(['Mint', 'SN', '50.00', '', a.nickname, t.admin.nickname]);
  });

  it('is refused to a member (403)', async () => {
    const m = await registerMember(t.app, 'dm');
    const res = await getCsv(m, '/api/bank/alltransactions.csv');
    expect(res.statusCode).toBe(403);
    const link = await call(t.app, m.token, 'POST', '/api/exports/link', { path: '/api/bank/alltransactions.csv' });
    expect(link.statusCode).toBe(200);
    const url = link.json<{ url: string }>().url;
    expect((await call(t.app, undefined, 'GET', url)).statusCode).toBe(403);
  });
});

describe('download links', () => {
  it('open one export once, as the member that made it, without a token in the URL', async () => {
    const m = await registerMember(t.app, 'lm');
    await mint(t.app, t.admin, m.nickname, 2, '7');
    const { url, expiresAt } = await linkFor(m, '/api/bank/transactions.csv', { currencyId: '2' });
    expect(url).toMatch(/^\/api\/bank\/transactions\.csv\?currencyId=2&token=[\w-]{43}$/);
    expect(url).not.toContain(m.token);
    const left = Date.parse(expiresAt) - Date.now();
    expect(left).toBeGreaterThan(50_000);
    expect(left).toBeLessThanOrEqual(60_000);
    const first = await call(t.app, undefined, 'GET', url);
    expect(first.statusCode, first.body).toBe(200);
    const [, ...rows] = records(first.body);
    expect(rows.map((r) => [r[2], r[4], r[6]])).toEqual([['Mint', '7.00', m.nickname]]);
    const again = await call(t.app, undefined, 'GET', url);
    expect(again.statusCode).toBe(401);
    expect(again.json<{ message: string }>().message).toBe('This link is invalid or has expired');
  });

  it('refuse a link used for other filters or another export, and an expired one', async () => {
    const m = await registerMember(t.app, 'ln');
    const { url } = await linkFor(m, '/api/bank/transactions.csv', { currencyId: '2' });
    const token = new URL(url, 'http://x').searchParams.get('token') ?? '';
    const other = await call(t.app, undefined, 'GET', `/api/bank/transactions.csv?currencyId=1&token=${token}`);
    expect(other.statusCode).toBe(401);
    // A link for other filters is not used up by the attempt.
    expect((await call(t.app, undefined, 'GET', url)).statusCode).toBe(200);
    const late = await linkFor(m, '/api/bank/transactions.csv');
    await t.built.database.db.execute(
      sql`UPDATE export_links SET expires_at = now() - interval '1 second' WHERE user_id = ${m.id}`,
    );
    const res = await call(t.app, undefined, 'GET', late.url);
    expect(res.statusCode).toBe(401);
    expect(res.json<{ message: string }>().message).toBe('This link is invalid or has expired');
  });

  it('die with their session, and are refused for bad filters and unknown exports', async () => {
    const m = await registerMember(t.app, 'lo');
    const { url } = await linkFor(m, '/api/bank/transactions.csv');
    expect((await call(t.app, m.token, 'POST', '/api/user/logout', {})).statusCode).toBe(200);
    expect((await call(t.app, undefined, 'GET', url)).statusCode).toBe(401);
    const n = await registerMember(t.app, 'lp');
    const bad = await call(t.app, n.token, 'POST', '/api/exports/link', {
      path: '/api/bank/transactions.csv',
      query: { startDate: '2026-02-02', endDate: '2026-01-01' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toBe('The end date must not be before the start date');
    const unknown = await call(t.app, n.token, 'POST', '/api/exports/link', { path: '/api/user/secrets.csv' });
    expect(unknown.statusCode).toBe(400);
    expect(
      (await call(t.app, undefined, 'POST', '/api/exports/link', { path: '/api/bank/transactions.csv' })).statusCode,
    ).toBe(401);
  });
});

describe('rate limit', () => {
  it('limits each member exports per minute (429), not other members', async () => {
    const m = await registerMember(t.app, 'rm');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await getCsv(m, '/api/bank/transactions.csv')).statusCode);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
    const other = await registerMember(t.app, 'rn');
    expect((await getCsv(other, '/api/bank/transactions.csv')).statusCode).toBe(200);
  });
});
