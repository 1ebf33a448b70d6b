import { randomBytes } from 'node:crypto';
import type {
  AuditResponse,
  CreateCurrencyRequest,
  Currency,
  CurrencyStatsEntry,
  SupplyHistoryResponse,
  SupplyPoint,
  Transaction,
  TransactionsResponse,
  User,
} from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createMarket, placeOk } from './exchange.helpers.ts';
import {
  balanceOf,
  call,
  expectLedgerBalanced,
  type Member,
  mint,
  registerMember,
  uniqueNick,
  useTestApp,
} from './helpers.ts';

const t = useTestApp();

/** A fresh ticker (SPEC §5: alphanumeric 2 to 7). */
function uniqueTicker(): string {
  return `T${randomBytes(3).toString('hex').toUpperCase()}`;
}

/** Creates a fresh currency as the admin, so a test can freeze or tax it without touching others. */
async function newCurrency(overrides: Partial<CreateCurrencyRequest> = {}): Promise<Currency> {
  const res = await call(t.app, t.admin.token, 'POST', '/api/bank/createCurrency', {
    ticker: uniqueTicker(),
    name: 'Test Coin',
    precision: 2,
    canDeposit: false,
    canWithdraw: false,
    canTransfer: true,
    canMint: true,
    canBurn: true,
    ...overrides,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ currency: Currency }>().currency;
}

function transfer(
  from: Member,
  to: string,
  currencyId: number,
  amount: string | number,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return call(
    t.app,
    from.token,
    'POST',
    '/api/bank/p2pTransfer',
    { recipientNickName: to, currencyId, amount, ...extra },
    headers,
  );
}

function burn(to: string, currencyId: number, amount: string, note = 'test burn') {
  return call(t.app, t.admin.token, 'POST', '/api/bank/burn', { recipientNickName: to, currencyId, amount, note });
}

async function history(member: Member, filters: Record<string, unknown> = {}): Promise<TransactionsResponse> {
  const res = await call(t.app, member.token, 'POST', '/api/bank/transactions', {
    paging: { limit: 50, page: 1 },
    ...filters,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TransactionsResponse>();
}

async function allHistory(filters: Record<string, unknown> = {}): Promise<TransactionsResponse> {
  const res = await call(t.app, t.admin.token, 'POST', '/api/bank/alltransactions', {
    paging: { limit: 50, page: 1 },
    ...filters,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TransactionsResponse>();
}

async function listCurrencies(): Promise<Currency[]> {
  const res = await call(t.app, undefined, 'GET', '/api/bank/currencies');
  expect(res.statusCode).toBe(200);
  return res.json<{ currencies: Currency[] }>().currencies;
}

async function adminLogs(
  where: ReturnType<typeof sql>,
): Promise<Array<{ category: number; admin_id: string; affected_user_id: string | null; action: string }>> {
  const res = await t.built.database.db.execute(
    sql`SELECT category, admin_id, affected_user_id, action FROM admin_logs WHERE ${where} ORDER BY created_at, id`,
  );
  return res.rows as Array<{ category: number; admin_id: string; affected_user_id: string | null; action: string }>;
}

/** Rows as `category amount sender->recipient` for compact assertions. */
function describeTxs(txs: Transaction[]): string[] {
  return txs.map(
    (t) => `${t.category} ${t.balance.amount} ${t.sender?.nickname ?? 'system'}->${t.recipient?.nickname ?? 'system'}`,
  );
}

describe('GET /api/bank/currencies', () => {
  it('lists the seeded currencies to anyone, taxes as fraction strings', async () => {
    const res = await call(t.app, undefined, 'GET', '/api/bank/currencies');
    expect(res.statusCode).toBe(200);
    const body = res.json<{ currencies: Currency[]; message: string }>();
    expect(body.message).toEqual(expect.any(String));
    const byId = new Map(body.currencies.map((c) => [c.currencyId, c]));
    expect(byId.get(1)).toMatchObject({
      ticker: 'SD',
      precision: 2,
      canTransfer: true,
      transferTax: '0.01',
      taxCollector: 'admin',
    });
    expect(byId.get(2)).toMatchObject({ ticker: 'SN', precision: 2, canTransfer: true, transferTax: '0' });
    expect(byId.get(3)).toMatchObject({ ticker: 'CR', name: 'Credits', canTransfer: false });
  });
});

describe('POST /api/bank/p2pTransfer', () => {
  it('taxes SD at 1% exactly, paid to the collector as a category 4 row', async () => {
    const a = await registerMember(t.app, 'tax');
    const b = await registerMember(t.app, 'tax');
    await mint(t.app, t.admin, a.nickname, 1, '100');
    const res = await transfer(a, b.nickname, 1, '12.34', { note: 'for lunch' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ senderUser: User; message: string }>();
    // 1% of 12.34 = 0.1234, rounded down to 0.12 at precision 2.
    expect(body.message).toBe(`Sent 12.22 SD to ${b.nickname} (tax 0.12 SD)`);
    expect(body.senderUser.nickname).toBe(a.nickname);
    expect(body.senderUser.balances).toEqual([{ currencyId: 1, amount: '87.66' }]);
    expect(await balanceOf(t.app, a, 1)).toBe('87.66');
    expect(await balanceOf(t.app, b, 1)).toBe('12.22');

    const rows = (await history(a, { category: 4 })).txs;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      category: 4,
      balance: { currencyId: 1, amount: '0.12' },
      executor: { nickname: a.nickname },
      sender: { nickname: a.nickname },
      recipient: { nickname: 'admin' },
    });
    const sent = (await history(a, { category: 3 })).txs;
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      balance: { currencyId: 1, amount: '12.22' },
      recipient: { nickname: b.nickname },
      note: 'for lunch',
    });
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('rounds the tax down at the precision: small transfers pay none', async () => {
    const a = await registerMember(t.app, 'round');
    const b = await registerMember(t.app, 'round');
    await mint(t.app, t.admin, a.nickname, 1, '10');
    const cases: Array<[string, string, string]> = [
      ['0.99', '0.99', `Sent 0.99 SD to ${b.nickname}`],
      ['0.01', '0.01', `Sent 0.01 SD to ${b.nickname}`],
      ['1.99', '1.98', `Sent 1.98 SD to ${b.nickname} (tax 0.01 SD)`],
      [String(2.5), '2.48', `Sent 2.48 SD to ${b.nickname} (tax 0.02 SD)`],
    ];
    for (const [amount, , message] of cases) {
      const res = await transfer(a, b.nickname, 1, amount);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toBe(message);
    }
    // Sent 0.99 + 0.01 + 1.99 + 2.5 = 5.49; received 0.99 + 0.01 + 1.98 + 2.48 = 5.46.
    expect(await balanceOf(t.app, a, 1)).toBe('4.51');
    expect(await balanceOf(t.app, b, 1)).toBe('5.46');
    const taxes = (await history(a, { category: 4 })).txs.map((t) => t.balance.amount).sort();
    expect(taxes).toEqual(['0.01', '0.02']);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('moves SN untaxed, also from a JSON number amount', async () => {
    const a = await registerMember(t.app, 'sn');
    const b = await registerMember(t.app, 'sn');
    await mint(t.app, t.admin, a.nickname, 2, '20');
    const res = await transfer(a, b.nickname, 2, 10.5);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(`Sent 10.50 SN to ${b.nickname}`);
    expect(await balanceOf(t.app, a, 2)).toBe('9.5');
    expect(await balanceOf(t.app, b, 2)).toBe('10.5');
    const rows = (await history(a, { currencyId: 2 })).txs;
    expect(describeTxs(rows)).toEqual([`3 10.5 ${a.nickname}->${b.nickname}`, `10 20 system->${a.nickname}`]);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('credits the tax collector of a currency exactly, to the last unit of its precision', async () => {
    const collector = await registerMember(t.app, 'coll');
    const coin = await newCurrency({ precision: 3, transferTax: 0.05, taxCollector: collector.nickname });
    expect(coin.transferTax).toBe('0.05');
    const a = await registerMember(t.app, 'pay');
    const b = await registerMember(t.app, 'pay');
    await mint(t.app, t.admin, a.nickname, coin.currencyId, '10');
    const res = await transfer(a, b.nickname, coin.currencyId, '1.234');
    expect(res.statusCode, res.body).toBe(200);
    // 5% of 1.234 = 0.0617 -> 0.061 at precision 3.
    expect(await balanceOf(t.app, a, coin.currencyId)).toBe('8.766');
    expect(await balanceOf(t.app, b, coin.currencyId)).toBe('1.173');
    expect(await balanceOf(t.app, collector, coin.currencyId)).toBe('0.061');
    const got = (await history(collector)).txs;
    expect(describeTxs(got)).toEqual([`4 0.061 ${a.nickname}->${collector.nickname}`]);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('burns the tax when the currency has no collector, and the ledger still balances', async () => {
    const coin = await newCurrency({ transferTax: '0.1', taxCollector: '' });
    const a = await registerMember(t.app, 'burnt');
    const b = await registerMember(t.app, 'burnt');
    await mint(t.app, t.admin, a.nickname, coin.currencyId, '10');
    const res = await transfer(a, b.nickname, coin.currencyId, '10');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(`Sent 9.00 ${coin.ticker} to ${b.nickname} (tax 1.00 ${coin.ticker})`);
    expect(await balanceOf(t.app, a, coin.currencyId)).toBe('0');
    expect(await balanceOf(t.app, b, coin.currencyId)).toBe('9');
    const tax = (await history(a, { category: 4 })).txs;
    expect(tax).toHaveLength(1);
    expect(tax[0]?.recipient).toBeNull();
    const audit = await expectLedgerBalanced(t.app, t.admin);
    const entry = audit.currencies.find((c) => c.currencyId === coin.currencyId);
    expect(entry).toMatchObject({ balances: '9', issued: '10', removed: '1', difference: '0', ok: true });
  });

  it('refuses a frozen currency with 409 and its frozenNote', async () => {
    const coin = await newCurrency();
    const a = await registerMember(t.app, 'frz');
    const b = await registerMember(t.app, 'frz');
    await mint(t.app, t.admin, a.nickname, coin.currencyId, '10');
    const freeze = await call(t.app, t.admin.token, 'POST', '/api/bank/modifyCurrency', {
      currencyId: coin.currencyId,
      isFrozen: true,
      frozenNote: 'Frozen for maintenance until Monday',
    });
    expect(freeze.statusCode, freeze.body).toBe(200);
    const res = await transfer(a, b.nickname, coin.currencyId, '1');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'Frozen for maintenance until Monday' });
    expect(await balanceOf(t.app, a, coin.currencyId)).toBe('10');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('refuses a currency that cannot be transferred (Credits) with 409', async () => {
    const a = await registerMember(t.app, 'cr');
    const b = await registerMember(t.app, 'cr');
    await mint(t.app, t.admin, a.nickname, 3, '10');
    const res = await transfer(a, b.nickname, 3, '1');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toEqual(expect.any(String));
    expect(await balanceOf(t.app, a, 3)).toBe('10');
    expect(await balanceOf(t.app, b, 3)).toBe('0');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('refuses amounts with more decimals than the precision with 400', async () => {
    const whole = await newCurrency({ precision: 0 });
    const a = await registerMember(t.app, 'prec');
    const b = await registerMember(t.app, 'prec');
    await mint(t.app, t.admin, a.nickname, 1, '10');
    await mint(t.app, t.admin, a.nickname, whole.currencyId, '10');
    const refused: Array<[number, string | number]> = [
      [1, '1.001'],
      [1, 1.001],
      [1, '0.015'],
      [whole.currencyId, '1.5'],
      [whole.currencyId, 0.5],
    ];
    for (const [currencyId, amount] of refused) {
      const res = await transfer(a, b.nickname, currencyId, amount);
      expect(res.statusCode, `${amount}`).toBe(400);
      expect(res.json().message).toBe('"amount" contains an invalid value');
    }
    expect((await transfer(a, b.nickname, whole.currencyId, '2')).statusCode).toBe(200);
    expect(await balanceOf(t.app, a, 1)).toBe('10');
    expect(await balanceOf(t.app, b, whole.currencyId)).toBe('2');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it.each([
    ['below 0.01', '0.009'],
    ['zero', 0],
    ['negative', -1],
    ['negative text', '-5'],
    ['an exponent', '1e2'],
    ['not a number', 'ten'],
    ['null', null],
  ])('refuses an amount %s with 400', async (_label, amount) => {
    const a = await registerMember(t.app, 'small');
    const b = await registerMember(t.app, 'small');
    await mint(t.app, t.admin, a.nickname, 2, '10');
    const res = await transfer(a, b.nickname, 2, amount as string);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('"amount" contains an invalid value');
    expect(await balanceOf(t.app, a, 2)).toBe('10');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('refuses a transfer to oneself, whatever the case of the nickname', async () => {
    const a = await registerMember(t.app, 'self');
    await mint(t.app, t.admin, a.nickname, 2, '10');
    for (const nick of [a.nickname, a.nickname.toUpperCase()]) {
      const res = await transfer(a, nick, 2, '1');
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toEqual(expect.any(String));
    }
    expect(await balanceOf(t.app, a, 2)).toBe('10');
    expect((await history(a)).total).toBe(1);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('answers 404 for an unknown or inactive recipient and an unknown currency', async () => {
    const a = await registerMember(t.app, 'lost');
    const gone = await registerMember(t.app, 'gone');
    await t.built.database.db.execute(sql`UPDATE users SET is_active = false WHERE id = ${gone.id}`);
    await mint(t.app, t.admin, a.nickname, 2, '10');
    expect((await transfer(a, uniqueNick('ghost'), 2, '1')).statusCode).toBe(404);
    expect((await transfer(a, gone.nickname, 2, '1')).statusCode).toBe(404);
    const b = await registerMember(t.app, 'lost');
    expect((await transfer(a, b.nickname, 9999, '1')).statusCode).toBe(404);
    expect(await balanceOf(t.app, a, 2)).toBe('10');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('refuses insufficient funds with 409 and changes nothing', async () => {
    const a = await registerMember(t.app, 'poor');
    const b = await registerMember(t.app, 'poor');
    await mint(t.app, t.admin, a.nickname, 1, '5');
    const before = [await history(a), await history(b)];
    for (const [currencyId, amount] of [
      [1, '5.01'],
      [1, '100'],
      [2, '1'],
    ] as const) {
      const res = await transfer(a, b.nickname, currencyId, amount);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: 'Insufficient funds' });
    }
    expect(await balanceOf(t.app, a, 1)).toBe('5');
    expect(await balanceOf(t.app, b, 1)).toBe('0');
    const me = (await call(t.app, a.token, 'GET', '/api/user/me')).json<{ user: User }>().user;
    expect(me.balances).toEqual([{ currencyId: 1, amount: '5' }]);
    const after = [await history(a), await history(b)];
    expect(after.map((h) => h.total)).toEqual(before.map((h) => h.total));
    // Exactly the whole balance goes through.
    expect((await transfer(a, b.nickname, 1, '5')).statusCode).toBe(200);
    expect(await balanceOf(t.app, a, 1)).toBe('0');
    expect(await balanceOf(t.app, b, 1)).toBe('4.95');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('refuses insufficient funds the same way under an Idempotency-Key (in a transaction)', async () => {
    const a = await registerMember(t.app, 'poork');
    const b = await registerMember(t.app, 'poork');
    await mint(t.app, t.admin, a.nickname, 1, '5');
    const before = [await history(a), await history(b)];
    // 2: no balance row at all; 1: a row that would go below zero.
    for (const [currencyId, amount] of [
      [2, '1'],
      [1, '5.01'],
    ] as const) {
      const key = { 'idempotency-key': `k-${randomBytes(8).toString('hex')}` };
      const res = await transfer(a, b.nickname, currencyId, amount, {}, key);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: 'Insufficient funds' });
    }
    const after = [await history(a), await history(b)];
    expect(after.map((h) => h.total)).toEqual(before.map((h) => h.total));
    expect(await balanceOf(t.app, a, 1)).toBe('5');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('refuses a note over 255 characters and unknown fields', async () => {
    const a = await registerMember(t.app, 'note');
    const b = await registerMember(t.app, 'note');
    await mint(t.app, t.admin, a.nickname, 2, '10');
    const long = await transfer(a, b.nickname, 2, '1', { note: 'x'.repeat(256) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('"note" contains an invalid value');
    const extra = await transfer(a, b.nickname, 2, '1', { senderNickName: b.nickname });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().message).toBe('"senderNickName" is not allowed');
    expect((await transfer(a, b.nickname, 2, '1', { note: 'x'.repeat(255) })).statusCode).toBe(200);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('needs a session', async () => {
    const res = await call(t.app, undefined, 'POST', '/api/bank/p2pTransfer', {
      recipientNickName: 'admin',
      currencyId: 2,
      amount: '1',
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/bank/mint and /burn', () => {
  it('mints and burns for the admin, with admin log rows 4 and 5', async () => {
    const m = await registerMember(t.app, 'mb');
    const minted = await call(t.app, t.admin.token, 'POST', '/api/bank/mint', {
      recipientNickName: m.nickname,
      currencyId: 1,
      amount: '25.5',
      note: 'welcome bonus',
    });
    expect(minted.statusCode, minted.body).toBe(200);
    expect(minted.json().message).toBe(`Minted 25.50 SD to ${m.nickname}`);
    const burned = await burn(m.nickname, 1, '5.25', 'chargeback');
    expect(burned.statusCode, burned.body).toBe(200);
    expect(burned.json().message).toBe(`Burned 5.25 SD from ${m.nickname}`);
    expect(await balanceOf(t.app, m, 1)).toBe('20.25');

    expect(describeTxs((await history(m)).txs)).toEqual([
      `11 5.25 ${m.nickname}->system`,
      `10 25.5 system->${m.nickname}`,
    ]);
    const rows = (await history(m)).txs;
    expect(rows.map((r) => r.executor)).toEqual([{ nickname: 'admin' }, { nickname: 'admin' }]);
    expect(rows.map((r) => r.note)).toEqual(['chargeback', 'welcome bonus']);

    const logs = await adminLogs(sql`affected_user_id = ${m.id}`);
    expect(logs.map((l) => l.category)).toEqual([4, 5]);
    expect(logs.every((l) => l.admin_id === t.admin.id)).toBe(true);
    expect(logs[0]?.action).toContain('welcome bonus');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('requires a note of 4 to 255 characters', async () => {
    const m = await registerMember(t.app, 'mnote');
    const base = { recipientNickName: m.nickname, currencyId: 2, amount: '1' };
    const missing = await call(t.app, t.admin.token, 'POST', '/api/bank/mint', base);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('"note" is required');
    for (const note of ['abc', 'x'.repeat(256)]) {
      const res = await call(t.app, t.admin.token, 'POST', '/api/bank/mint', { ...base, note });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('"note" contains an invalid value');
      const b = await call(t.app, t.admin.token, 'POST', '/api/bank/burn', { ...base, note });
      expect(b.statusCode).toBe(400);
    }
    for (const note of ['abcd', 'x'.repeat(255)]) {
      expect((await call(t.app, t.admin.token, 'POST', '/api/bank/mint', { ...base, note })).statusCode).toBe(200);
    }
    expect(await balanceOf(t.app, m, 2)).toBe('2');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('is for admins only', async () => {
    const m = await registerMember(t.app, 'mint');
    const body = { recipientNickName: m.nickname, currencyId: 2, amount: '1000', note: 'self service' };
    expect((await call(t.app, m.token, 'POST', '/api/bank/mint', body)).statusCode).toBe(403);
    expect((await call(t.app, m.token, 'POST', '/api/bank/burn', body)).statusCode).toBe(403);
    expect((await call(t.app, undefined, 'POST', '/api/bank/mint', body)).statusCode).toBe(401);
    expect(await balanceOf(t.app, m, 2)).toBe('0');
  });

  it('refuses currencies that cannot be minted or burned with 409', async () => {
    const noMint = await newCurrency({ canMint: false });
    const noBurn = await newCurrency({ canBurn: false });
    const m = await registerMember(t.app, 'flags');
    const res = await call(t.app, t.admin.token, 'POST', '/api/bank/mint', {
      recipientNickName: m.nickname,
      currencyId: noMint.currencyId,
      amount: '1',
      note: 'not allowed',
    });
    expect(res.statusCode).toBe(409);
    await mint(t.app, t.admin, m.nickname, noBurn.currencyId, '3');
    const b = await burn(m.nickname, noBurn.currencyId, '1');
    expect(b.statusCode).toBe(409);
    expect(await balanceOf(t.app, m, noBurn.currencyId)).toBe('3');
    expect(await balanceOf(t.app, m, noMint.currencyId)).toBe('0');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('refuses to burn more than the member holds with 409 and changes nothing', async () => {
    const m = await registerMember(t.app, 'over');
    const empty = await registerMember(t.app, 'over');
    await mint(t.app, t.admin, m.nickname, 2, '3');
    const res = await burn(m.nickname, 2, '3.01');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Insufficient funds');
    expect((await burn(empty.nickname, 2, '1')).statusCode).toBe(409);
    expect(await balanceOf(t.app, m, 2)).toBe('3');
    expect((await history(m)).total).toBe(1);
    expect(await adminLogs(sql`affected_user_id = ${m.id} AND category = 5`)).toEqual([]);
    expect((await burn(m.nickname, 2, '3')).statusCode).toBe(200);
    expect(await balanceOf(t.app, m, 2)).toBe('0');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('answers 404 for an unknown member or currency and 400 for a precision violation', async () => {
    const m = await registerMember(t.app, 'mint404');
    const base = { recipientNickName: m.nickname, currencyId: 2, amount: '1', note: 'test mint' };
    expect(
      (await call(t.app, t.admin.token, 'POST', '/api/bank/mint', { ...base, recipientNickName: uniqueNick('x') }))
        .statusCode,
    ).toBe(404);
    expect((await call(t.app, t.admin.token, 'POST', '/api/bank/mint', { ...base, currencyId: 9999 })).statusCode).toBe(
      404,
    );
    const prec = await call(t.app, t.admin.token, 'POST', '/api/bank/mint', { ...base, amount: '1.001' });
    expect(prec.statusCode).toBe(400);
    expect(prec.json().message).toBe('"amount" contains an invalid value');
    expect(await balanceOf(t.app, m, 2)).toBe('0');
  });
});

describe('POST /api/bank/createCurrency', () => {
  it('assigns the next id, lists the currency and logs admin action 2', async () => {
    const before = Math.max(...(await listCurrencies()).map((c) => c.currencyId));
    const ticker = uniqueTicker();
    const res = await call(t.app, t.admin.token, 'POST', '/api/bank/createCurrency', {
      ticker,
      name: 'Moon Rock',
      precision: 4,
      canDeposit: true,
      canWithdraw: false,
      canTransfer: true,
      canMint: true,
      canBurn: false,
      depositTax: 0,
      withdrawTax: '1',
      transferTax: 0.025,
      imgUrl: 'https://example.test/moon.png',
    });
    expect(res.statusCode, res.body).toBe(200);
    const { currency, message } = res.json<{ currency: Currency; message: string }>();
    expect(message).toEqual(expect.any(String));
    expect(currency.currencyId).toBeGreaterThan(before);
    expect(currency).toEqual({
      currencyId: currency.currencyId,
      ticker,
      name: 'Moon Rock',
      precision: 4,
      canDeposit: true,
      canWithdraw: false,
      canTransfer: true,
      canMint: true,
      canBurn: false,
      isFrozen: false,
      frozenNote: '',
      depositTax: '0',
      withdrawTax: '1',
      transferTax: '0.025',
      taxCollector: '',
      imgUrl: 'https://example.test/moon.png',
    });
    expect((await listCurrencies()).find((c) => c.currencyId === currency.currencyId)).toEqual(currency);
    const logs = await adminLogs(sql`category = 2 AND action LIKE ${`%${ticker}%`}`);
    expect(logs).toHaveLength(1);
    expect(logs[0]?.admin_id).toBe(t.admin.id);
  });

  it('gives concurrent creations distinct ids', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        call(t.app, t.admin.token, 'POST', '/api/bank/createCurrency', {
          ticker: uniqueTicker(),
          name: 'Race Coin',
          precision: 2,
          canDeposit: false,
          canWithdraw: false,
          canTransfer: true,
          canMint: true,
          canBurn: true,
        }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    const ids = results.map((r) => r.json<{ currency: Currency }>().currency.currencyId);
    expect(new Set(ids).size).toBe(8);
  });

  it('refuses a taken ticker in any case with 409', async () => {
    const coin = await newCurrency();
    const res = await call(t.app, t.admin.token, 'POST', '/api/bank/createCurrency', {
      ticker: coin.ticker.toLowerCase(),
      name: 'Copy Coin',
      precision: 2,
      canDeposit: false,
      canWithdraw: false,
      canTransfer: true,
      canMint: true,
      canBurn: true,
    });
    expect(res.statusCode).toBe(409);
    const sd = await call(t.app, t.admin.token, 'POST', '/api/bank/createCurrency', {
      ticker: 'SD',
      name: 'Copy Coin',
      precision: 2,
      canDeposit: false,
      canWithdraw: false,
      canTransfer: true,
      canMint: true,
      canBurn: true,
    });
    expect(sd.statusCode).toBe(409);
  });

  it('refuses taxes above 1 or below 0, bad precision, bad tickers and unknown collectors', async () => {
    const base = {
      ticker: uniqueTicker(),
      name: 'Bad Coin',
      precision: 2,
      canDeposit: false,
      canWithdraw: false,
      canTransfer: true,
      canMint: true,
      canBurn: true,
    };
    const refused: Array<[Record<string, unknown>, string]> = [
      [{ transferTax: 1.01 }, '"transferTax" contains an invalid value'],
      [{ transferTax: '1.5' }, '"transferTax" contains an invalid value'],
      [{ depositTax: -0.1 }, '"depositTax" contains an invalid value'],
      [{ withdrawTax: 5 }, '"withdrawTax" contains an invalid value'],
      [{ precision: 10 }, '"precision" contains an invalid value'],
      [{ precision: -1 }, '"precision" contains an invalid value'],
      [{ precision: 1.5 }, '"precision" contains an invalid value'],
      [{ ticker: 'X' }, '"ticker" contains an invalid value'],
      [{ ticker: 'TOOLONG1' }, '"ticker" contains an invalid value'],
      [{ ticker: 'A-B' }, '"ticker" contains an invalid value'],
      [{ name: 'ab' }, '"name" contains an invalid value'],
      [{ currencyId: 99 }, '"currencyId" is not allowed'],
      [{ taxCollector: uniqueNick('nobody') }, '"taxCollector" contains an invalid value'],
    ];
    for (const [change, message] of refused) {
      const res = await call(t.app, t.admin.token, 'POST', '/api/bank/createCurrency', { ...base, ...change });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect((await listCurrencies()).some((c) => c.ticker === base.ticker)).toBe(false);
  });

  it('is for admins only', async () => {
    const m = await registerMember(t.app, 'cc');
    const res = await call(t.app, m.token, 'POST', '/api/bank/createCurrency', {
      ticker: uniqueTicker(),
      name: 'Mine Coin',
      precision: 2,
      canDeposit: false,
      canWithdraw: false,
      canTransfer: true,
      canMint: true,
      canBurn: true,
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('POST /api/bank/modifyCurrency', () => {
  it('changes only the fields given and logs admin action 3', async () => {
    const coin = await newCurrency({ transferTax: '0.02' });
    const res = await call(t.app, t.admin.token, 'POST', '/api/bank/modifyCurrency', {
      currencyId: coin.currencyId,
      name: 'Renamed Coin',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ currency: Currency }>().currency).toEqual({ ...coin, name: 'Renamed Coin' });
    const tax = await call(t.app, t.admin.token, 'POST', '/api/bank/modifyCurrency', {
      currencyId: coin.currencyId,
      transferTax: 0.5,
      canMint: false,
    });
    expect(tax.statusCode, tax.body).toBe(200);
    expect(tax.json<{ currency: Currency }>().currency).toEqual({
      ...coin,
      name: 'Renamed Coin',
      transferTax: '0.5',
      canMint: false,
    });
    expect((await listCurrencies()).find((c) => c.currencyId === coin.currencyId)?.transferTax).toBe('0.5');
    const logs = await adminLogs(sql`category = 3 AND action LIKE ${`%${coin.ticker}%`}`);
    expect(logs).toHaveLength(2);
  });

  it('applies a changed tax to the next transfer', async () => {
    const coin = await newCurrency();
    const a = await registerMember(t.app, 'newtax');
    const b = await registerMember(t.app, 'newtax');
    await mint(t.app, t.admin, a.nickname, coin.currencyId, '10');
    await call(t.app, t.admin.token, 'POST', '/api/bank/modifyCurrency', {
      currencyId: coin.currencyId,
      transferTax: '0.25',
    });
    expect((await transfer(a, b.nickname, coin.currencyId, '4')).statusCode).toBe(200);
    expect(await balanceOf(t.app, b, coin.currencyId)).toBe('3');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('refuses the ticker (400), an unknown id (404), bad values (400) and members (403)', async () => {
    const coin = await newCurrency();
    const ticker = await call(t.app, t.admin.token, 'POST', '/api/bank/modifyCurrency', {
      currencyId: coin.currencyId,
      ticker: 'NEWT',
    });
    expect(ticker.statusCode).toBe(400);
    expect(ticker.json().message).toBe('"ticker" is not allowed');
    const unknown = await call(t.app, t.admin.token, 'POST', '/api/bank/modifyCurrency', {
      currencyId: 99999,
      name: 'Nobody Coin',
    });
    expect(unknown.statusCode).toBe(404);
    const tax = await call(t.app, t.admin.token, 'POST', '/api/bank/modifyCurrency', {
      currencyId: coin.currencyId,
      transferTax: 2,
    });
    expect(tax.statusCode).toBe(400);
    expect(tax.json().message).toBe('"transferTax" contains an invalid value');
    const noId = await call(t.app, t.admin.token, 'POST', '/api/bank/modifyCurrency', { name: 'No Id Coin' });
    expect(noId.statusCode).toBe(400);
    expect(noId.json().message).toBe('"currencyId" is required');
    const m = await registerMember(t.app, 'mc');
    const member = await call(t.app, m.token, 'POST', '/api/bank/modifyCurrency', {
      currencyId: coin.currencyId,
      isFrozen: true,
    });
    expect(member.statusCode).toBe(403);
    expect((await listCurrencies()).find((c) => c.currencyId === coin.currencyId)).toEqual(coin);
  });
});

describe('POST /api/bank/transactions', () => {
  /** A sends B 1 SN, 2 SN and 3 SD; C sends B 4 SN; the admin minted to A and C. */
  async function scene() {
    const a = await registerMember(t.app, 'ha');
    const b = await registerMember(t.app, 'hb');
    const c = await registerMember(t.app, 'hc');
    await mint(t.app, t.admin, a.nickname, 2, '100');
    await mint(t.app, t.admin, a.nickname, 1, '100');
    await mint(t.app, t.admin, c.nickname, 2, '100');
    for (const [from, cur, amount] of [
      [a, 2, '1'],
      [a, 2, '2'],
      [a, 1, '3'],
      [c, 2, '4'],
    ] as const) {
      const res = await transfer(from, b.nickname, cur, amount);
      expect(res.statusCode, res.body).toBe(200);
    }
    return { a, b, c };
  }

  it('lists only the member own rows, newest first, with the total', async () => {
    const { a, b, c } = await scene();
    const ha = await history(a);
    expect(ha.message).toEqual(expect.any(String));
    expect(ha.total).toBe(6);
    expect(describeTxs(ha.txs)).toEqual([
      `4 0.03 ${a.nickname}->admin`,
      `3 2.97 ${a.nickname}->${b.nickname}`,
      `3 2 ${a.nickname}->${b.nickname}`,
      `3 1 ${a.nickname}->${b.nickname}`,
      `10 100 system->${a.nickname}`,
      `10 100 system->${a.nickname}`,
    ]);
    const dates = ha.txs.map((t) => Date.parse(t.createdAt));
    expect([...dates].sort((x, y) => y - x)).toEqual(dates);
    expect(ha.txs.every((t) => /^[0-9a-f]{24}$/.test(t._id))).toBe(true);
    // B sees what A and C sent, never the tax row or the mints to A and C.
    const hb = await history(b);
    expect(hb.total).toBe(4);
    expect(hb.txs.every((t) => t.category === 3 && t.recipient?.nickname === b.nickname)).toBe(true);
    // C never sees A's rows.
    const hc = await history(c);
    expect(hc.total).toBe(2);
    expect(hc.txs.some((t) => t.sender?.nickname === a.nickname || t.recipient?.nickname === a.nickname)).toBe(false);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('filters by currency, category, amount and the other party', async () => {
    const { a, b, c } = await scene();
    expect((await history(b, { currencyId: 2 })).total).toBe(3);
    expect((await history(b, { currencyId: 1 })).total).toBe(1);
    expect((await history(a, { category: 10 })).total).toBe(2);
    expect((await history(a, { category: 4 })).total).toBe(1);
    expect((await history(a, { category: 33 })).total).toBe(0);
    expect(describeTxs((await history(b, { amountAbove: '2', amountBelow: '3' })).txs)).toEqual([
      `3 2.97 ${a.nickname}->${b.nickname}`,
      `3 2 ${a.nickname}->${b.nickname}`,
    ]);
    expect((await history(b, { amountAbove: 3.5 })).total).toBe(1);
    expect((await history(b, { amountBelow: '1' })).total).toBe(1);
    expect((await history(b, { nickname: c.nickname })).txs.map((t) => t.balance.amount)).toEqual(['4']);
    expect((await history(b, { nickname: a.nickname.toUpperCase() })).total).toBe(3);
    expect((await history(b, { nickname: a.nickname, currencyId: 2, amountAbove: '1.5' })).total).toBe(1);
    expect((await history(b, { nickname: uniqueNick('nobody') })).total).toBe(0);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('filters by date range', async () => {
    const { b } = await scene();
    const day = 24 * 3600 * 1000;
    const now = Date.now();
    expect((await history(b, { startDate: new Date(now - 60_000).toISOString() })).total).toBe(4);
    expect((await history(b, { startDate: new Date(now + day).toISOString() })).total).toBe(0);
    expect((await history(b, { endDate: new Date(now - day).toISOString() })).total).toBe(0);
    expect(
      (
        await history(b, {
          startDate: new Date(now - day).toISOString().slice(0, 10),
          endDate: new Date(now + day).toISOString().slice(0, 10),
        })
      ).total,
    ).toBe(4);
    const bad = await call(t.app, b.token, 'POST', '/api/bank/transactions', {
      paging: { limit: 10, page: 1 },
      startDate: 'yesterday',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('"startDate" contains an invalid value');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('pages with limit 5..50 and page >= 1', async () => {
    const a = await registerMember(t.app, 'pg');
    const b = await registerMember(t.app, 'pg');
    await mint(t.app, t.admin, a.nickname, 2, '100');
    for (let i = 1; i <= 11; i++) {
      expect((await transfer(a, b.nickname, 2, String(i))).statusCode).toBe(200);
    }
    const page = async (limit: number, p: number) =>
      (
        await call(t.app, b.token, 'POST', '/api/bank/transactions', { paging: { limit, page: p } })
      ).json<TransactionsResponse>();
    const p1 = await page(5, 1);
    const p2 = await page(5, 2);
    const p3 = await page(5, 3);
    const p4 = await page(5, 4);
    expect([p1.total, p2.total, p3.total, p4.total]).toEqual([11, 11, 11, 11]);
    expect(p1.txs.map((t) => t.balance.amount)).toEqual(['11', '10', '9', '8', '7']);
    expect(p2.txs.map((t) => t.balance.amount)).toEqual(['6', '5', '4', '3', '2']);
    expect(p3.txs.map((t) => t.balance.amount)).toEqual(['1']);
    expect(p4.txs).toEqual([]);
    expect((await page(50, 1)).txs).toHaveLength(11);

    const refused: Array<[unknown, string]> = [
      [{ limit: 4, page: 1 }, '"paging.limit" contains an invalid value'],
      [{ limit: 51, page: 1 }, '"paging.limit" contains an invalid value'],
      [{ limit: 10.5, page: 1 }, '"paging.limit" contains an invalid value'],
      [{ limit: 10, page: 0 }, '"paging.page" contains an invalid value'],
      [{ limit: 10 }, '"paging.page" is required'],
      [undefined, '"paging" is required'],
    ];
    for (const [paging, message] of refused) {
      const res = await call(t.app, b.token, 'POST', '/api/bank/transactions', paging === undefined ? {} : { paging });
      expect(res.statusCode, JSON.stringify(paging)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('needs a session', async () => {
    const res = await call(t.app, undefined, 'POST', '/api/bank/transactions', { paging: { limit: 10, page: 1 } });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/bank/alltransactions', () => {
  it('lets the admin see every row; the nickname filter matches any party', async () => {
    const a = await registerMember(t.app, 'all');
    const b = await registerMember(t.app, 'all');
    await mint(t.app, t.admin, a.nickname, 2, '10');
    expect((await transfer(a, b.nickname, 2, '4')).statusCode).toBe(200);
    const forA = await allHistory({ nickname: a.nickname });
    expect(describeTxs(forA.txs)).toEqual([`3 4 ${a.nickname}->${b.nickname}`, `10 10 system->${a.nickname}`]);
    expect(forA.total).toBe(2);
    const forB = await allHistory({ nickname: b.nickname });
    expect(describeTxs(forB.txs)).toEqual([`3 4 ${a.nickname}->${b.nickname}`]);
    // The admin executed the mint: the admin's nickname finds it too.
    const mints = await allHistory({ nickname: 'admin', category: 10, amountAbove: '10', amountBelow: '10' });
    expect(mints.txs.some((t) => t.recipient?.nickname === a.nickname)).toBe(true);
    const page = await allHistory({ paging: { limit: 5, page: 1 } });
    expect(page.txs).toHaveLength(5);
    expect(page.total).toBeGreaterThanOrEqual(3);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('is for admins only', async () => {
    const m = await registerMember(t.app, 'allm');
    const res = await call(t.app, m.token, 'POST', '/api/bank/alltransactions', { paging: { limit: 10, page: 1 } });
    expect(res.statusCode).toBe(403);
  });
});

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
          { category: 3, total: '9', count: 1 },
          { category: 4, total: '1', count: 1 },
          { category: 10, total: '150', count: 2 },
          { category: 11, total: '-20', count: 1 },
        ],
        totals: '140',
        // Mints 150 + burns (-20) - taxes 1.
        circulating: '129',
      },
    ]);
    // Here every tax was burned, so circulating is exactly what the members hold.
    expect(await balanceOf(t.app, a, coin.currencyId)).toBe('70');
    expect(await balanceOf(t.app, b, coin.currencyId)).toBe('59');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('filters by date range and returns every currency without a filter', async () => {
    const coin = await newCurrency();
    const a = await registerMember(t.app, 'st2');
    await mint(t.app, t.admin, a.nickname, coin.currencyId, '5');
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
    expect(today[0]?.categories).toEqual([{ category: 10, total: '5', count: 1 }]);
    const all = await stats({});
    expect(all.map((s) => s._id)).toEqual(expect.arrayContaining([1, 2, coin.currencyId]));
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('is for admins only', async () => {
    const m = await registerMember(t.app, 'stm');
    expect((await call(t.app, m.token, 'POST', '/api/bank/currencyStats', {})).statusCode).toBe(403);
  });
});

describe('POST /api/bank/distributeCurrency', () => {
  it('shares pro rata in whole units; the remainder stays with the sender, who is excluded', async () => {
    const target = await newCurrency({ precision: 0 });
    const sender = await registerMember(t.app, 'ds');
    const x = await registerMember(t.app, 'dx');
    const y = await registerMember(t.app, 'dy');
    const z = await registerMember(t.app, 'dz');
    await mint(t.app, t.admin, sender.nickname, 2, '100');
    await mint(t.app, t.admin, sender.nickname, target.currencyId, '1000');
    await mint(t.app, t.admin, x.nickname, target.currencyId, '1');
    await mint(t.app, t.admin, y.nickname, target.currencyId, '2');
    await mint(t.app, t.admin, z.nickname, target.currencyId, '3');
    const res = await call(t.app, sender.token, 'POST', '/api/bank/distributeCurrency', {
      currencyId: 2,
      amount: '10',
      targetCurrencyId: target.currencyId,
      note: 'dividend',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ senderUser: User; recipients: number; distributed: string; message: string }>();
    // 10 x 1/6 = 1.66 -> 1; 10 x 2/6 = 3.33 -> 3; 10 x 3/6 = 5: 9 shared, 1 stays.
    expect(body.recipients).toBe(3);
    expect(body.distributed).toBe('9');
    expect(body.message).toEqual(expect.any(String));
    expect(body.senderUser.balances.find((b) => b.currencyId === 2)?.amount).toBe('91');
    expect(await balanceOf(t.app, sender, 2)).toBe('91');
    expect(await balanceOf(t.app, x, 2)).toBe('1');
    expect(await balanceOf(t.app, y, 2)).toBe('3');
    expect(await balanceOf(t.app, z, 2)).toBe('5');
    const rows = (await history(sender, { category: 3 })).txs;
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.note === 'dividend' && r.sender?.nickname === sender.nickname)).toBe(true);
    expect(rows.map((r) => r.recipient?.nickname).sort()).toEqual([x.nickname, y.nickname, z.nickname].sort());
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('refuses with 409 when nobody would receive a whole unit, and changes nothing', async () => {
    const target = await newCurrency();
    const sender = await registerMember(t.app, 'dn');
    await mint(t.app, t.admin, sender.nickname, 2, '50');
    // Only the sender holds the target currency.
    await mint(t.app, t.admin, sender.nickname, target.currencyId, '5');
    const body = { currencyId: 2, amount: '10', targetCurrencyId: target.currencyId };
    const alone = await call(t.app, sender.token, 'POST', '/api/bank/distributeCurrency', body);
    expect(alone.statusCode).toBe(409);
    // Two holders, 1.5 SN to share: each share is 0.75, not a whole unit.
    const p = await registerMember(t.app, 'dn');
    const q = await registerMember(t.app, 'dn');
    await mint(t.app, t.admin, p.nickname, target.currencyId, '1');
    await mint(t.app, t.admin, q.nickname, target.currencyId, '1');
    const tiny = await call(t.app, sender.token, 'POST', '/api/bank/distributeCurrency', { ...body, amount: '1.5' });
    expect(tiny.statusCode).toBe(409);
    expect(await balanceOf(t.app, sender, 2)).toBe('50');
    expect(await balanceOf(t.app, p, 2)).toBe('0');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('refuses more than the sender holds (409) and non-transferable currencies (409)', async () => {
    const target = await newCurrency();
    const sender = await registerMember(t.app, 'dp');
    const h = await registerMember(t.app, 'dp');
    await mint(t.app, t.admin, sender.nickname, 2, '5');
    await mint(t.app, t.admin, sender.nickname, 3, '5');
    await mint(t.app, t.admin, h.nickname, target.currencyId, '1');
    const tooMuch = await call(t.app, sender.token, 'POST', '/api/bank/distributeCurrency', {
      currencyId: 2,
      amount: '6',
      targetCurrencyId: target.currencyId,
    });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().message).toBe('Insufficient funds');
    const credits = await call(t.app, sender.token, 'POST', '/api/bank/distributeCurrency', {
      currencyId: 3,
      amount: '5',
      targetCurrencyId: target.currencyId,
    });
    expect(credits.statusCode).toBe(409);
    const unknown = await call(t.app, sender.token, 'POST', '/api/bank/distributeCurrency', {
      currencyId: 2,
      amount: '1',
      targetCurrencyId: 99999,
    });
    expect(unknown.statusCode).toBe(404);
    expect(await balanceOf(t.app, sender, 2)).toBe('5');
    expect(await balanceOf(t.app, h, 2)).toBe('0');
    await expectLedgerBalanced(t.app, t.admin);
  });
});

/** supplyHistory as anyone (the route is public); expects success. */
async function supplyHistory(body: Record<string, unknown>): Promise<SupplyPoint[]> {
  const res = await call(t.app, undefined, 'POST', '/api/bank/supplyHistory', body);
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
    expect(points[0]).toEqual({ time: points[0]!.time, supply: '0', circulating: '0' });
    // Minted 150.25, burned 20: 130.25 exist; circulating also leaves out the 1 of tax.
    expect(points[2]).toMatchObject({ supply: '130.25', circulating: '129.25' });

    const audit = await auditOf(coin.currencyId);
    expect(audit).toMatchObject({ issued: '150.25', removed: '20', balances: '130.25', escrow: '0' });
    const held = [
      await balanceOf(t.app, a, coin.currencyId),
      await balanceOf(t.app, b, coin.currencyId),
      await balanceOf(t.app, collector, coin.currencyId),
    ];
    expect(held).toEqual(['70', '59.25', '1']);

    const stats = await call(t.app, t.admin.token, 'POST', '/api/bank/currencyStats', { currencyId: coin.currencyId });
    expect(stats.json<{ currencyStats: CurrencyStatsEntry[] }>().currencyStats[0]?.circulating).toBe('129.25');
  });

  it('places each movement in its bucket and carries the totals forward over quiet days', async () => {
    const coin = await newCurrency();
    const a = await registerMember(t.app, 'shd');
    const b = await registerMember(t.app, 'shd');
    await mint(t.app, t.admin, a.nickname, coin.currencyId, '100');
    await mint(t.app, t.admin, b.nickname, coin.currencyId, '50');
    // Move the two mints into the past (the API always writes "now"): a's three days ago, b's yesterday.
    // The ledger is append-only (a trigger refuses UPDATE): only a replication session, as the test's
    // superuser, may rewrite a row, and only in this transaction.
    const back = async (member: Member, hours: number) =>
      t.built.database.db.transaction(async (tx) => {
        await tx.execute(sql`SET LOCAL session_replication_role = replica`);
        await tx.execute(sql`
          UPDATE bank_transactions SET created_at = now() - make_interval(hours => ${hours})
          WHERE currency_id = ${coin.currencyId} AND recipient_id = ${member.id}`);
      });
    await back(a, 72);
    await back(b, 24);
    expect((await burn(a.nickname, coin.currencyId, '20')).statusCode).toBe(200);

    const daily = await supplyHistory({ currencyId: coin.currencyId, interval: '1d', limit: 5 });
    expect(daily.map((p) => [p.supply, p.circulating])).toEqual([
      ['0', '0'],
      ['100', '100'],
      ['100', '100'],
      ['150', '150'],
      ['130', '130'],
    ]);
    expect(Date.parse(daily[4]!.time) - Date.parse(daily[0]!.time)).toBe(4 * 24 * HOUR_MS);
    expect(daily[4]!.time).toMatch(/T00:00:00\.000Z$/);
    // A short window still counts everything before it: its first bucket starts from the full history.
    const short = await supplyHistory({ currencyId: coin.currencyId, interval: '1d', limit: 2 });
    expect(short.map((p) => p.supply)).toEqual(['150', '130']);
    expect(short.map((p) => p.time)).toEqual(daily.slice(3).map((p) => p.time));
    // Without a limit: 200 buckets, the same last point.
    const full = await supplyHistory({ currencyId: coin.currencyId, interval: '1h' });
    expect(full).toHaveLength(200);
    expect(full[199]).toMatchObject({ supply: '130', circulating: '130' });
    expect(full[0]).toMatchObject({ supply: '0', circulating: '0' });
  });

  it('keeps money held in escrow by an open order in the supply', async () => {
    const { pair, base } = await createMarket(t.app, t.admin);
    const seller = await registerMember(t.app, 'she');
    await mint(t.app, t.admin, seller.nickname, base.currencyId, '40');
    await placeOk(t.app, seller, pair._id, false, '15', '2');
    expect(await balanceOf(t.app, seller, base.currencyId)).toBe('25');

    const points = await supplyHistory({ currencyId: base.currencyId, interval: '1h', limit: 1 });
    expect(points).toEqual([{ time: expect.any(String), supply: '40', circulating: '40' }]);
    expect(await auditOf(base.currencyId)).toMatchObject({ balances: '25', escrow: '15', issued: '40', removed: '0' });
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
    expect(audit.message).toBe('Ledger balanced');
    const sd = audit.currencies.find((c) => c.currencyId === 1);
    expect(sd).toMatchObject({ ticker: 'SD', difference: '0', negativeBalances: 0, escrow: '0', ok: true });
  });

  it('is for admins only', async () => {
    const m = await registerMember(t.app, 'aud');
    expect((await call(t.app, m.token, 'GET', '/api/bank/audit')).statusCode).toBe(403);
    expect((await call(t.app, undefined, 'GET', '/api/bank/audit')).statusCode).toBe(401);
  });
});

describe('Idempotency-Key', () => {
  it('replays the first response of a repeated transfer and debits once', async () => {
    const a = await registerMember(t.app, 'idem');
    const b = await registerMember(t.app, 'idem');
    await mint(t.app, t.admin, a.nickname, 2, '10');
    const key = { 'idempotency-key': `k-${randomBytes(8).toString('hex')}` };
    const first = await transfer(a, b.nickname, 2, '3', { note: 'once' }, key);
    expect(first.statusCode, first.body).toBe(200);
    const second = await transfer(a, b.nickname, 2, '3', { note: 'once' }, key);
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(await balanceOf(t.app, a, 2)).toBe('7');
    expect(await balanceOf(t.app, b, 2)).toBe('3');
    expect((await history(a)).total).toBe(2);

    const other = await transfer(a, b.nickname, 2, '4', { note: 'once' }, key);
    expect(other.statusCode).toBe(409);
    expect(await balanceOf(t.app, a, 2)).toBe('7');

    // Keys belong to their member: another member may use the same one.
    const c = await registerMember(t.app, 'idem');
    await mint(t.app, t.admin, c.nickname, 2, '10');
    expect((await transfer(c, b.nickname, 2, '3', { note: 'once' }, key)).statusCode).toBe(200);
    expect(await balanceOf(t.app, b, 2)).toBe('6');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('does not keep the key of a refused request, so a retry can succeed', async () => {
    const a = await registerMember(t.app, 'retry');
    const b = await registerMember(t.app, 'retry');
    const key = { 'idempotency-key': `k-${randomBytes(8).toString('hex')}` };
    expect((await transfer(a, b.nickname, 2, '3', {}, key)).statusCode).toBe(409);
    await mint(t.app, t.admin, a.nickname, 2, '3');
    const retry = await transfer(a, b.nickname, 2, '3', {}, key);
    expect(retry.statusCode, retry.body).toBe(200);
    expect((await transfer(a, b.nickname, 2, '3', {}, key)).body).toBe(retry.body);
    expect(await balanceOf(t.app, a, 2)).toBe('0');
    expect(await balanceOf(t.app, b, 2)).toBe('3');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('refuses a malformed key with 400 and moves nothing', async () => {
    const a = await registerMember(t.app, 'badkey');
    const b = await registerMember(t.app, 'badkey');
    await mint(t.app, t.admin, a.nickname, 2, '10');
    const res = await transfer(a, b.nickname, 2, '1', {}, { 'idempotency-key': 'k'.repeat(256) });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('"Idempotency-Key" contains an invalid value');
    expect(await balanceOf(t.app, a, 2)).toBe('10');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('covers mint as well', async () => {
    const m = await registerMember(t.app, 'idmint');
    const key = { 'idempotency-key': `k-${randomBytes(8).toString('hex')}` };
    const body = { recipientNickName: m.nickname, currencyId: 2, amount: '5', note: 'once only' };
    const first = await call(t.app, t.admin.token, 'POST', '/api/bank/mint', body, key);
    const second = await call(t.app, t.admin.token, 'POST', '/api/bank/mint', body, key);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(second.body).toBe(first.body);
    expect(await balanceOf(t.app, m, 2)).toBe('5');
    expect(await adminLogs(sql`affected_user_id = ${m.id}`)).toHaveLength(1);
    await expectLedgerBalanced(t.app, t.admin);
  });
});
