/**
 * Transfers between members through the API (SPEC §4, §7 Bank; DESIGN §4): p2p with tax rounded up and
 * paid to the collector or burned, frozen and untransferable currencies, precision, bad amounts, unknown
 * parties and insufficient funds. Mint and burn: bank.mint-burn.test.ts; distribution: bank.distribute.test.ts;
 * Idempotency-Key: bank.idempotency.test.ts.
 */
import { randomBytes } from 'node:crypto';
import type { User } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bankCalls, describeTxs } from './bank.helpers.ts';
import { balanceOf, call, expectLedgerBalanced, mint, registerMember, uniqueNick, useTestApp } from './helpers.ts';

const t = useTestApp();
const { newCurrency, transfer, history } = bankCalls(t);

describe('POST /api/bank/p2pTransfer', () => {
  it('taxes SD at 1% exactly, paid to the collector as a category 4 row', async () => {
    const a = await registerMember(t.app, 'tax');
    const b = await registerMember(t.app, 'tax');
    await mint(t.app, t.admin, a.nickname, 1, '100');
    const res = await transfer(a, b.nickname, 1, '12.34', { note: 'for lunch' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ senderUser: User; message: string }>();
    // 1% of 12.34 = 0.1234, rounded UP to 0.13 at precision 2 (DESIGN §4).
    expect(body.message).toBe(`Sent 12.21 SD to ${b.nickname} (tax 0.13 SD)`);
    expect(body.senderUser.nickname).toBe(a.nickname);
    expect(body.senderUser.balances).toEqual([{ currencyId: 1, amount: '87.66' }]);
    expect(await balanceOf(t.app, a, 1)).toBe('87.66');
    expect(await balanceOf(t.app, b, 1)).toBe('12.21');

    const rows = (await history(a, { category: 4 })).txs;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      category: 4,
      balance: { currencyId: 1, amount: '0.13' },
      executor: { nickname: a.nickname },
      sender: { nickname: a.nickname },
      recipient: { nickname: 'admin' },
    });
    const sent = (await history(a, { category: 3 })).txs;
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      balance: { currencyId: 1, amount: '12.21' },
      recipient: { nickname: b.nickname },
      note: 'for lunch',
    });
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('rounds the tax up at the precision: small transfers still pay one smallest unit', async () => {
    const a = await registerMember(t.app, 'round');
    const b = await registerMember(t.app, 'round');
    await mint(t.app, t.admin, a.nickname, 1, '10');
    const cases: Array<[string, string]> = [
      ['0.99', `Sent 0.98 SD to ${b.nickname} (tax 0.01 SD)`],
      ['0.02', `Sent 0.01 SD to ${b.nickname} (tax 0.01 SD)`],
      ['1.99', `Sent 1.97 SD to ${b.nickname} (tax 0.02 SD)`],
      [String(2.5), `Sent 2.47 SD to ${b.nickname} (tax 0.03 SD)`],
    ];
    for (const [amount, message] of cases) {
      const res = await transfer(a, b.nickname, 1, amount);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toBe(message);
    }
    // Sent 0.99 + 0.02 + 1.99 + 2.5 = 5.50; received 0.98 + 0.01 + 1.97 + 2.47 = 5.43.
    expect(await balanceOf(t.app, a, 1)).toBe('4.5');
    expect(await balanceOf(t.app, b, 1)).toBe('5.43');
    const taxes = (await history(a, { category: 4 })).txs.map((t) => t.balance.amount).sort();
    expect(taxes).toEqual(['0.01', '0.01', '0.02', '0.03']);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('refuses a transfer the tax would take whole, and splitting a payment never avoids the tax', async () => {
    // The attack: 0.01 at a 33% tax paid none, so any sum could be sent tax-free in 0.01 steps.
    const coin = await newCurrency({ transferTax: '0.33' });
    const a = await registerMember(t.app, 'split');
    const b = await registerMember(t.app, 'split');
    await mint(t.app, t.admin, a.nickname, coin.currencyId, '1');
    const tiny = await transfer(a, b.nickname, coin.currencyId, '0.01');
    expect(tiny.statusCode, tiny.body).toBe(409);
    expect(tiny.json().message).toBe(`Amount too small: the 0.01 ${coin.ticker} tax would leave ${b.nickname} nothing`);
    expect(await balanceOf(t.app, a, coin.currencyId)).toBe('1');
    expect(await balanceOf(t.app, b, coin.currencyId)).toBe('0');

    // Ten payments of 0.02 pay 0.01 tax each (0.0066 rounded up): 0.10 in all, more than 0.0066 x 10.
    for (let i = 0; i < 10; i++) {
      const res = await transfer(a, b.nickname, coin.currencyId, '0.02');
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await balanceOf(t.app, a, coin.currencyId)).toBe('0.8');
    expect(await balanceOf(t.app, b, coin.currencyId)).toBe('0.1');
    const taxes = (await history(a, { currencyId: coin.currencyId, category: 4 })).txs;
    expect(taxes).toHaveLength(10);
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
    expect(describeTxs(rows)).toEqual([`3 10.50 ${a.nickname}->${b.nickname}`, `10 20.00 system->${a.nickname}`]);
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
    // 5% of 1.234 = 0.0617 -> 0.062 at precision 3 (rounded up, DESIGN §4).
    expect(await balanceOf(t.app, a, coin.currencyId)).toBe('8.766');
    expect(await balanceOf(t.app, b, coin.currencyId)).toBe('1.172');
    expect(await balanceOf(t.app, collector, coin.currencyId)).toBe('0.062');
    const got = (await history(collector)).txs;
    expect(describeTxs(got)).toEqual([`4 0.062 ${a.nickname}->${collector.nickname}`]);
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
    expect(entry).toMatchObject({ balances: '9.00', issued: '10.00', removed: '1.00', difference: '0.00', ok: true });
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
    const twoDecimals = 'Amount can have at most 2 decimals';
    const wholeOnly = 'Amount must be a whole number';
    const refused: Array<[number, string | number, string]> = [
      [1, '1.001', twoDecimals],
      [1, 1.001, twoDecimals],
      [1, '0.015', twoDecimals],
      [whole.currencyId, '1.5', wholeOnly],
      [whole.currencyId, 0.5, wholeOnly],
    ];
    for (const [currencyId, amount, message] of refused) {
      const res = await transfer(a, b.nickname, currencyId, amount);
      expect(res.statusCode, `${amount}`).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect((await transfer(a, b.nickname, whole.currencyId, '2')).statusCode).toBe(200);
    expect(await balanceOf(t.app, a, 1)).toBe('10');
    expect(await balanceOf(t.app, b, whole.currencyId)).toBe('2');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it.each([
    ['below 0.01', '0.009', 'Amount must be at least 0.01'],
    ['zero', 0, 'Amount must be at least 0.01'],
    ['negative', -1, 'Amount must be at least 0.01'],
    ['negative text', '-5', 'Amount must be at least 0.01'],
    ['an exponent', '1e2', 'Amount must be a number, like 12.50'],
    ['not a number', 'ten', 'Amount must be a number, like 12.50'],
    ['null', null, 'Amount must be a number, like 12.50'],
  ])('refuses an amount %s with 400', async (_label, amount, message) => {
    const a = await registerMember(t.app, 'small');
    const b = await registerMember(t.app, 'small');
    await mint(t.app, t.admin, a.nickname, 2, '10');
    const res = await transfer(a, b.nickname, 2, amount as string);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
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

  it.each([
    ['without an Idempotency-Key (in a batch)', false],
    ["under an Idempotency-Key (in the key's transaction)", true],
  ])('refuses insufficient funds with 409 and changes nothing, %s', async (_how, keyed) => {
    const headers = (): Record<string, string> =>
      keyed ? { 'idempotency-key': `k-${randomBytes(8).toString('hex')}` } : {};
    const a = await registerMember(t.app, 'poor');
    const b = await registerMember(t.app, 'poor');
    await mint(t.app, t.admin, a.nickname, 1, '5');
    const before = [await history(a), await history(b)];
    // 1: a row that would go below zero; 2: no balance row at all.
    for (const [currencyId, amount] of [
      [1, '5.01'],
      [1, '100'],
      [2, '1'],
    ] as const) {
      const res = await transfer(a, b.nickname, currencyId, amount, {}, headers());
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: 'Insufficient funds' });
    }
    expect(await balanceOf(t.app, a, 1)).toBe('5');
    expect(await balanceOf(t.app, b, 1)).toBe('0');
    const me = (await call(t.app, a.token, 'GET', '/api/user/me')).json<{ user: User }>().user;
    expect(me.balances).toEqual([{ currencyId: 1, amount: '5.00' }]);
    const after = [await history(a), await history(b)];
    expect(after.map((h) => h.total)).toEqual(before.map((h) => h.total));
    // Exactly the whole balance goes through.
    expect((await transfer(a, b.nickname, 1, '5', {}, headers())).statusCode).toBe(200);
    expect(await balanceOf(t.app, a, 1)).toBe('0');
    expect(await balanceOf(t.app, b, 1)).toBe('4.95');
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
