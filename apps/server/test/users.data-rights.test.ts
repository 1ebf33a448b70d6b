/**
 * A member's data rights (DESIGN §11.6): `GET export` answers the account's own data as one JSON file;
 * `deleteAccount` and the admin's `deleteUserAccount` anonymise an account that holds nothing, refuse one
 * that holds a balance, escrow or a running forge process (saying what to do), and leave the ledger, its
 * conservation and everyone else's history intact.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { exportAccount } from '../src/modules/users/account-export.service.ts';
import { bankCalls } from './bank.helpers.ts';
import { createMarket, fundedMember, placeOk } from './exchange.helpers.ts';
import { call, expectLedgerBalanced, type Member, mint, PASSWORD, registerMember, useTestApp } from './helpers.ts';
import { codeAt, enrol } from './mfa.helpers.ts';

const t = useTestApp();
const { newCurrency, transfer, history, adminLogs } = bankCalls(t);

interface AccountExport {
  exportedAt: string;
  profile: { id: string; nickname: string; email: string | null };
  balances: { currencyId: number; ticker: string; amount: string }[];
  history: { id: string; amount: string; sender: string | null; recipient: string | null; note: string }[];
  items: unknown[];
  orders: { side: string; price: string; amount: string; state: number }[];
  forgeProcesses: unknown[];
  checkouts: unknown[];
  sessions: { device: string; address: string }[];
  signIns: { address: string }[];
}

async function exportOf(m: Member): Promise<AccountExport> {
  const res = await call(t.app, m.token, 'GET', '/api/user/export');
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['content-disposition']).toMatch(
    /^attachment; filename="starlight-account-\d{4}-\d{2}-\d{2}\.json"$/,
  );
  return JSON.parse(res.body) as AccountExport;
}

/** Every balance of the ledger is zero or more. */
async function expectNoNegativeBalance(): Promise<void> {
  const res = await t.built.database.db.execute(sql`SELECT count(*)::int AS n FROM balances WHERE amount < 0`);
  expect(res.rows[0]).toEqual({ n: 0 });
}

async function userRow(id: string) {
  const res = await t.built.database.db.execute<{
    nickname: string;
    email: string | null;
    password_hash: string | null;
    is_active: boolean;
  }>(sql`SELECT nickname, email, password_hash, is_active FROM users WHERE id = ${id}`);
  return res.rows[0];
}

describe('the account export', () => {
  it("holds the member's own profile, balances, history, orders, sessions and sign-ins, and nobody else's", async () => {
    const coin = await newCurrency({ name: 'Export Coin', precision: 2 });
    const a = await registerMember(t.app, 'exa');
    const b = await registerMember(t.app, 'exb');
    const c = await registerMember(t.app, 'exc');
    await mint(t.app, t.admin, a.nickname, coin.currencyId, '100');
    await mint(t.app, t.admin, c.nickname, coin.currencyId, '7');
    expect(
      (await transfer(a, b.nickname, coin.currencyId, '12.5', { note: 'a "quoted", note\nwith =1+1' })).statusCode,
    ).toBe(200);
    expect((await transfer(c, b.nickname, coin.currencyId, '1')).statusCode).toBe(200);
    const market = await createMarket(t.app, t.admin);
    const trader = await fundedMember(t.app, t.admin, { [market.quote.currencyId]: '50' }, 'exo');
    await placeOk(t.app, trader, market.pair._id, true, '2', '3.25');

    const mine = await exportOf(a);
    expect(mine.profile).toMatchObject({ id: a.id, nickname: a.nickname, email: a.email });
    expect(JSON.stringify(mine)).not.toMatch(/password|token_version|\$argon|\$2[aby]\$/i);
    expect(mine.balances).toEqual([{ currencyId: coin.currencyId, ticker: coin.ticker, amount: '87.500000000' }]);
    expect(mine.history.map((h) => [h.sender, h.recipient, h.amount])).toEqual([
      [null, a.nickname, '100.000000000'],
      [a.nickname, b.nickname, '12.500000000'],
    ]);
    expect(mine.history[1]?.note).toBe('a "quoted", note\nwith =1+1');
    expect(mine.sessions.length).toBeGreaterThanOrEqual(1);
    expect(mine.signIns.length).toBeGreaterThanOrEqual(1);
    expect(mine).toMatchObject({ items: [], orders: [], forgeProcesses: [], checkouts: [] });

    // b sees both transfers it received, c's among them, but not c's mint.
    const theirs = await exportOf(b);
    expect(theirs.history.map((h) => h.sender)).toEqual([a.nickname, c.nickname]);
    const orders = (await exportOf(trader)).orders;
    expect(orders).toEqual([
      expect.objectContaining({ side: 'buy', price: '3.250000000', amount: '2.000000000', state: 1 }),
    ]);
  });

  it('reads every part in keyset pages: small pages give the same file as one page', async () => {
    const coin = await newCurrency({ name: 'Paged Coin', precision: 0 });
    const m = await registerMember(t.app, 'exl');
    const other = await registerMember(t.app, 'exm');
    for (let i = 1; i <= 5; i++) await mint(t.app, t.admin, m.nickname, coin.currencyId, String(i));
    for (let i = 1; i <= 3; i++) expect((await transfer(m, other.nickname, coin.currencyId, '1')).statusCode).toBe(200);
    const read = async (page: number) => {
      let text = '';
      for await (const chunk of await exportAccount(t.built.database.db, m.id, page)) text += chunk;
      const parsed = JSON.parse(text) as AccountExport;
      return { ...parsed, exportedAt: '' };
    };
    const whole = await read(500);
    expect(whole.history.map((h) => h.amount)).toEqual([
      ...['1', '2', '3', '4', '5'].map((a) => `${a}.000000000`),
      ...['1', '1', '1'].map((a) => `${a}.000000000`),
    ]);
    expect(await read(2)).toEqual(whole);
    expect(await read(1)).toEqual(whole);
  });

  it('needs a session: no export without one, nor with an API key, nor a deletion by key', async () => {
    expect((await call(t.app, undefined, 'GET', '/api/user/export')).statusCode).toBe(401);
    const m = await registerMember(t.app, 'exk');
    const key = await call(t.app, m.token, 'POST', '/api/user/apiKeys/create', { name: 'bot', scopes: ['read'] });
    expect(key.statusCode, key.body).toBe(200);
    const headers = { 'x-api-key': key.json<{ secret: string }>().secret };
    expect((await call(t.app, undefined, 'GET', '/api/user/export', undefined, headers)).statusCode).toBe(403);
    const del = await call(
      t.app,
      undefined,
      'POST',
      '/api/user/deleteAccount',
      { confirmNickname: m.nickname, password: PASSWORD },
      headers,
    );
    expect(del.statusCode).toBe(403);
    expect(await userRow(m.id)).toMatchObject({ nickname: m.nickname, is_active: true });
  });
});

describe('deleting an account', () => {
  it('refuses a wrong confirmation or password and, while it holds value, says what to do; nothing changes', async () => {
    const coin = await newCurrency({ name: 'Delete Coin', precision: 2 });
    const m = await registerMember(t.app, 'dla');
    await mint(t.app, t.admin, m.nickname, coin.currencyId, '5');
    const del = (body: Record<string, unknown>) => call(t.app, m.token, 'POST', '/api/user/deleteAccount', body);

    const wrongName = await del({ confirmNickname: `${m.nickname}x`, password: PASSWORD });
    expect([wrongName.statusCode, wrongName.json().message]).toEqual([400, 'Type your nickname exactly to confirm']);
    const noPassword = await del({ confirmNickname: m.nickname });
    expect([noPassword.statusCode, noPassword.json().message]).toEqual([400, '"password" is required']);
    const wrongPassword = await del({ confirmNickname: m.nickname, password: 'Wr0ng!Passw0rd' });
    expect([wrongPassword.statusCode, wrongPassword.json().message]).toEqual([401, 'Incorrect password']);
    const holding = await del({ confirmNickname: m.nickname.toUpperCase(), password: PASSWORD });
    expect(holding.statusCode).toBe(409);
    expect(holding.json().message).toBe(
      `The account still holds value: transfer or withdraw your balance (5 ${coin.ticker}), then delete it`,
    );
    expect(await userRow(m.id)).toMatchObject({ nickname: m.nickname, email: m.email, is_active: true });
    expect((await call(t.app, m.token, 'GET', '/api/user/me')).statusCode).toBe(200);
  });

  it('refuses while an open order holds escrow, and a second factor needs its code', async () => {
    const market = await createMarket(t.app, t.admin);
    const m = await fundedMember(t.app, t.admin, { [market.quote.currencyId]: '10' }, 'dlo');
    const order = await placeOk(t.app, m, market.pair._id, true, '2', '5');
    const refused = await call(t.app, m.token, 'POST', '/api/user/deleteAccount', {
      confirmNickname: m.nickname,
      password: PASSWORD,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('cancel your 1 open order on the Quantum Hub');

    const cancelled = await call(t.app, m.token, 'POST', '/api/cex/cancelOrder', { orderId: order.order._id });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const b = await registerMember(t.app, 'dlr');
    expect((await transfer(m, b.nickname, market.quote.currencyId, '10')).statusCode).toBe(200);
    const { secret } = await enrol(t.app, m.token);
    const noCode = await call(t.app, m.token, 'POST', '/api/user/deleteAccount', {
      confirmNickname: m.nickname,
      password: PASSWORD,
    });
    expect([noCode.statusCode, noCode.json().message]).toEqual([403, 'Two-factor code required']);
    const ok = await call(t.app, m.token, 'POST', '/api/user/deleteAccount', {
      confirmNickname: m.nickname,
      password: PASSWORD,
      mfaCode: await codeAt(secret, 1),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().message).toBe('Your account has been deleted');
  });

  it('anonymises an empty account: its tokens and sign-in stop, the ledger and the other side keep the history', async () => {
    const coin = await newCurrency({ name: 'Gone Coin', precision: 2 });
    const m = await registerMember(t.app, 'dlg');
    const other = await registerMember(t.app, 'dlh');
    await mint(t.app, t.admin, m.nickname, coin.currencyId, '3');
    expect((await transfer(m, other.nickname, coin.currencyId, '3', { note: 'all of it' })).statusCode).toBe(200);

    const res = await call(t.app, m.token, 'POST', '/api/user/deleteAccount', {
      confirmNickname: m.nickname,
      password: PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await userRow(m.id)).toEqual({
      nickname: `deleted-${m.id}`,
      email: null,
      password_hash: null,
      is_active: false,
    });
    expect((await call(t.app, m.token, 'GET', '/api/user/me')).statusCode).toBe(401);
    const login = await call(t.app, undefined, 'POST', '/api/user/login', { nickname: m.nickname, password: PASSWORD });
    expect(login.statusCode).not.toBe(200);
    const received = (await history(other)).txs.find((x) => x.note === 'all of it');
    expect(received?.sender).toEqual({ nickname: `deleted-${m.id}` });
    // The nickname is free again.
    const again = await call(t.app, undefined, 'POST', '/api/user/register', {
      nickname: m.nickname,
      email: `${m.nickname}2@example.test`,
      password: PASSWORD,
    });
    expect(again.statusCode, again.body).toBe(200);
    await expectLedgerBalanced(t.app, t.admin);
    await expectNoNegativeBalance();
  });
});

describe("an admin deleting a member's account", () => {
  it('is admin only, logged, refused for an admin, an unknown nickname or an account holding value', async () => {
    const coin = await newCurrency({ name: 'Admin Delete Coin', precision: 2 });
    const m = await registerMember(t.app, 'dad');
    const bystander = await registerMember(t.app, 'dae');
    const del = (token: string, nickname: string) =>
      call(t.app, token, 'POST', '/api/user/deleteUserAccount', { nickname });

    expect((await del(bystander.token, m.nickname)).statusCode).toBe(403);
    expect((await del(t.admin.token, 'nobody0here0at0all')).statusCode).toBe(404);
    const admin = await del(t.admin.token, t.admin.nickname);
    expect([admin.statusCode, admin.json().message]).toEqual([
      409,
      'An admin account cannot be deleted: change its role first',
    ]);
    await mint(t.app, t.admin, m.nickname, coin.currencyId, '1.25');
    const holding = await del(t.admin.token, m.nickname);
    expect(holding.statusCode).toBe(409);
    expect(holding.json().message).toContain(`transfer or withdraw their balance (1.25 ${coin.ticker})`);
    expect((await call(t.app, m.token, 'GET', '/api/user/me')).statusCode).toBe(200);

    expect((await transfer(m, bystander.nickname, coin.currencyId, '1.25')).statusCode).toBe(200);
    const ok = await del(t.admin.token, m.nickname);
    expect([ok.statusCode, ok.json().message]).toEqual([200, `${m.nickname}'s account has been deleted`]);
    expect((await call(t.app, m.token, 'GET', '/api/user/me')).statusCode).toBe(401);
    const logs = await adminLogs(sql`category = 44 AND affected_user_id = ${m.id}`);
    expect(logs).toEqual([expect.objectContaining({ action: `Delete ${m.nickname}'s account` })]);
    await expectLedgerBalanced(t.app, t.admin);
    await expectNoNegativeBalance();
  });
});
