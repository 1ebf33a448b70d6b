/**
 * The admin lists' CSV exports (DESIGN §11.6): users, access logs and admin logs round-trip through a CSV
 * parser with a header row (Forge Process Logs with a hostile recipe name), the list's filters as query parameters (bad ones refused), cells made
 * spreadsheet-safe, the same rows as the list in its order, and never for a member (403).
 */
import type { AuthResponse } from '@starlight/shared';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { bankCalls } from './bank.helpers.ts';
import { buy, publishedPackage } from './checkout.helpers.ts';
import { type ForgeCurrencies, forgeCalls, forgeCurrencies } from './forge.helpers.ts';
import { call, type Member, PASSWORD, registerMember, uniqueNick, useTestApp } from './helpers.ts';

const t = useTestApp();

/** The records of a CSV body (RFC 4180, CRLF), the header first. */
function records(body: string): string[][] {
  return parse(body, { record_delimiter: '\r\n' }) as string[][];
}

/** An export as the admin: 200, text/csv, its records. */
async function exported(url: string): Promise<string[][]> {
  const res = await call(t.app, t.admin.token, 'GET', url);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
  return records(res.body);
}

/** Registers a member whose e-mail starts with a formula character (a valid address all the same). */
async function hostileMember(): Promise<Member & { hostileEmail: string }> {
  const nickname = uniqueNick('xu');
  const hostileEmail = `+sum-${nickname}@example.test`;
  const res = await call(t.app, undefined, 'POST', '/api/user/register', {
    nickname,
    email: hostileEmail,
    password: PASSWORD,
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<AuthResponse>();
  return { id: body.user._id, nickname, email: hostileEmail, token: body.token, hostileEmail };
}

describe('GET /api/user/users.csv', () => {
  it('exports the accounts matching the user list filters, as the list shows them', async () => {
    const m = await hostileMember();
    const [header, ...rows] = await exported(`/api/user/users.csv?nickname=${m.nickname}`);
    expect(header).toEqual([
      'Created (UTC)',
      'Id',
      'Nickname',
      'Email',
      'Role',
      'Primary wallet',
      'Active',
      'Wallet only',
      'Email verified',
      'Anonymous',
      'Referrer',
      'Fame',
      'Holds currency',
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.slice(1, 10)).toEqual([
      m.id,
      m.nickname,
      `'${m.hostileEmail}`,
      'user',
      '',
      'yes',
      'no',
      'no',
      'no',
    ]);
    // Newest first, as the list: the accounts made today, by role.
    const today = new Date().toISOString().slice(0, 10);
    const [, ...recent] = await exported(`/api/user/users.csv?createdAfter=${today}&role=user&isActive=true`);
    const list = await call(t.app, t.admin.token, 'POST', '/api/user/getUsers', {
      paging: { limit: 50, page: 1 },
      createdAfter: today,
      role: 'user',
      isActive: true,
    });
    const listed = list.json<{ users: Array<{ _id: string }> }>().users.map((u) => u._id);
    expect(recent.slice(0, listed.length).map((r) => r[1])).toEqual(listed);
  });

  it('refuses bad filters and members', async () => {
    const m = await registerMember(t.app, 'xv');
    expect((await call(t.app, m.token, 'GET', '/api/user/users.csv')).statusCode).toBe(403);
    for (const [query, message] of [
      ['?password=x', '"password" is not allowed'],
      ['?createdAfter=2026-03-02&createdBefore=2026-03-01', 'The end date must not be before the start date'],
      ['?isActive=maybe', '"isActive" contains an invalid value'],
    ]) {
      const res = await call(t.app, t.admin.token, 'GET', `/api/user/users.csv${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json<{ message: string }>().message).toBe(message);
    }
  });
});

describe('GET /api/audit/accessLogs.csv', () => {
  it('exports the sign-ins matching the Access Logs filters', async () => {
    const m = await registerMember(t.app, 'xa');
    for (let i = 0; i < 2; i++) {
      const res = await call(t.app, undefined, 'POST', '/api/user/login', {
        nickOrEmail: m.nickname,
        password: PASSWORD,
      });
      expect(res.statusCode).toBe(200);
    }
    const [header, ...rows] = await exported(`/api/audit/accessLogs.csv?user=${m.nickname}&category=1`);
    expect(header).toEqual(['Date (UTC)', 'Id', 'User', 'Address', 'Login type']);
    const list = await call(t.app, t.admin.token, 'POST', '/api/audit/getAccessLogs', {
      paging: { limit: 50, page: 1 },
      user: m.nickname,
      category: 1,
    });
    const logs = list.json<{ logs: Array<{ _id: string; date: string; address: string }> }>().logs;
    expect(logs.length).toBeGreaterThanOrEqual(2);
    expect(rows.map((r) => [r[0], r[1], r[2], r[3], r[4]])).toEqual(
      logs.map((l) => [l.date, l._id, m.nickname, l.address, 'Email Login']),
    );
    const [, ...none] = await exported('/api/audit/accessLogs.csv?user=nobody0here');
    expect(none).toEqual([]);
    const bad = await call(t.app, t.admin.token, 'GET', '/api/audit/accessLogs.csv?category=9');
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toBe('"category" contains an invalid value');
    expect((await call(t.app, m.token, 'GET', '/api/audit/accessLogs.csv')).statusCode).toBe(403);
  });
});

describe('GET /api/audit/adminLogs.csv', () => {
  it('exports the admin actions matching the Admin Logs filters', async () => {
    const m = await registerMember(t.app, 'xl');
    const res = await call(t.app, t.admin.token, 'POST', '/api/user/administrateUser', {
      nickname: m.nickname,
      role: 'creator',
    });
    expect(res.statusCode, res.body).toBe(200);
    const [header, ...rows] = await exported(`/api/audit/adminLogs.csv?affectedUser=${m.nickname}`);
    expect(header).toEqual(['Date (UTC)', 'Id', 'Admin', 'Affected user', 'Address', 'Category', 'Action']);
    const list = await call(t.app, t.admin.token, 'POST', '/api/audit/getAdminLogs', {
      paging: { limit: 50, page: 1 },
      affectedUser: m.nickname,
    });
    const logs = list.json<{ logs: Array<{ _id: string; action: string }> }>().logs;
    expect(logs).toHaveLength(1);
    expect(rows.map((r) => [r[1], r[2], r[3], r[6]])).toEqual([
      [logs[0]?._id, t.admin.nickname, m.nickname, logs[0]?.action],
    ]);
    const bad = await call(
      t.app,
      t.admin.token,
      'GET',
      '/api/audit/adminLogs.csv?startDate=2026-02-02&endDate=2026-02-01',
    );
    expect(bad.statusCode).toBe(400);
    // The role change ended m's sessions; another member is refused by role.
    const other = await registerMember(t.app, 'xo');
    expect((await call(t.app, other.token, 'GET', '/api/audit/adminLogs.csv')).statusCode).toBe(403);
  });
});

describe('GET /api/forge/processes.csv', () => {
  let currencies: ForgeCurrencies;
  beforeAll(async () => {
    currencies = await forgeCurrencies(t);
  });
  const forge = forgeCalls(t, () => currencies);

  it('exports the processes matching the Forge Process Logs filters, cells made safe', async () => {
    const name = '=SUM(1,2) "smelt"\n🔥';
    const recipe = await forge.createRecipe({ name });
    const m = await forge.member('100');
    const first = await forge.started(m, recipe._id, 2);
    const second = await forge.started(m, recipe._id, 1);
    const [header, ...rows] = await exported(`/api/forge/processes.csv?nickname=${m.nickname}&state=1`);
    expect(header).toEqual([
      'Started (UTC)',
      'Id',
      'User',
      'Recipe',
      'Recipe id',
      'Input currency',
      'Input amount per unit',
      'Output currency',
      'Output amount per unit',
      'Quantity',
      'State',
      'Finish (UTC)',
      'Ended (UTC)',
    ]);
    expect(rows.map((r) => [r[1], r[2], r[3], r[4], r[5], r[7], r[9], r[10], r[12]])).toEqual(
      [second, first].map((p) => [
        p._id,
        m.nickname,
        `'${name}`,
        recipe._id,
        currencies.ore.ticker,
        currencies.ingot.ticker,
        String(p.quantity),
        'Started',
        '',
      ]),
    );
    expect(rows[0]?.[6]).toBe(second.input.amount);
    const [, ...none] = await exported(`/api/forge/processes.csv?nickname=${m.nickname}&state=3`);
    expect(none).toEqual([]);
    const bad = await call(
      t.app,
      t.admin.token,
      'GET',
      '/api/forge/processes.csv?finishAfter=2026-02-02&finishBefore=2026-02-01',
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toBe('The end date must not be before the start date');
    expect((await call(t.app, m.token, 'GET', '/api/forge/processes.csv')).statusCode).toBe(403);
  });
});

describe('GET /api/checkout/checkouts.csv', () => {
  it('exports the checkouts matching the Checkout Logs filters, cells made safe', async () => {
    const name = '@Credits, "big"\n🎁';
    const pkg = await publishedPackage(t, { name });
    const m = await registerMember(t.app, 'xc');
    const first = await buy(t, m, pkg, 2);
    const second = await buy(t, m, pkg, 1);
    const [header, ...rows] = await exported(`/api/checkout/checkouts.csv?nickname=${m.nickname}`);
    expect(header).toEqual([
      'Date (UTC)',
      'Id',
      'User',
      'Package',
      'Package id',
      'Cost (USD)',
      'Provider',
      'Reference',
      'Address',
      'State',
      'Credits',
      'Credits owed',
    ]);
    expect(rows.map((r) => [r[1], r[2], r[3], r[4], r[5], r[6], r[11]])).toEqual([
      [second.checkout._id, m.nickname, `'${name}`, pkg._id, '9.99', 'Crypto', '0.00'],
      [first.checkout._id, m.nickname, `'${name}`, pkg._id, '9.99', 'Card', '0.00'],
    ]);
    const [, ...cards] = await exported(`/api/checkout/checkouts.csv?nickname=${m.nickname}&checkoutProvider=2`);
    expect(cards.map((r) => r[1])).toEqual([first.checkout._id]);
    const bad = await call(t.app, t.admin.token, 'GET', '/api/checkout/checkouts.csv?checkoutProvider=7');
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toBe('"checkoutProvider" contains an invalid value');
    expect((await call(t.app, m.token, 'GET', '/api/checkout/checkouts.csv')).statusCode).toBe(403);
  });
});

describe('GET /api/bank/settlements.csv', () => {
  it('exports the settlements matching the filters in the list order, cells made safe', async () => {
    const coin = await bankCalls(t).newCurrency({ canDeposit: true, depositTax: 0 });
    const m = await registerMember(t.app, 'xs');
    const ids: string[] = [];
    for (const reference of ['=HYPERLINK(1)', 'plain, "quoted"']) {
      const res = await call(t.app, m.token, 'POST', '/api/bank/deposit', {
        currencyId: coin.currencyId,
        amount: '20',
        walletAddress: '0xabcdef0123456789abcdef0123456789abcdef01',
        reference,
      });
      expect(res.statusCode, res.body).toBe(200);
      ids.push(res.json<{ settlement: { _id: string } }>().settlement._id);
    }
    const [header, ...rows] = await exported('/api/bank/settlements.csv?kind=deposit&state=pending');
    expect(header).toEqual([
      'Date (UTC)',
      'Id',
      'Kind',
      'User',
      'Currency',
      'Amount',
      'Tax',
      'Wallet address',
      'Reference',
      'State',
      'Note',
      'Settled (UTC)',
    ]);
    const mine = rows.filter((r) => r[3] === m.nickname);
    expect(mine.map((r) => [r[1], r[2], r[4], r[5], r[8], r[9]])).toEqual([
      [ids[1], 'deposit', coin.ticker, '20.00', 'plain, "quoted"', 'pending'],
      [ids[0], 'deposit', coin.ticker, '20.00', "'=HYPERLINK(1)", 'pending'],
    ]);
    // The whole export in the list's order (pending first, then newest), as its first page shows it.
    const [, ...all] = await exported('/api/bank/settlements.csv');
    const list = await call(t.app, t.admin.token, 'POST', '/api/bank/getSettlements', {
      paging: { limit: 50, page: 1 },
    });
    const listed = list.json<{ settlements: Array<{ _id: string }> }>().settlements.map((x) => x._id);
    expect(all.slice(0, listed.length).map((r) => r[1])).toEqual(listed);
    const bad = await call(t.app, t.admin.token, 'GET', '/api/bank/settlements.csv?state=lost');
    expect(bad.statusCode).toBe(400);
    expect((await call(t.app, m.token, 'GET', '/api/bank/settlements.csv')).statusCode).toBe(403);
  });
});
