/** Transfers through the API (SPEC §4, §7 Bank; DESIGN §4): p2p with tax, mint and burn, distribution, idempotency. */
import { randomBytes } from 'node:crypto';
import type { User } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bankCalls, describeTxs } from './bank.helpers.ts';
import { balanceOf, call, expectLedgerBalanced, mint, registerMember, uniqueNick, useTestApp } from './helpers.ts';

const t = useTestApp();
const { newCurrency, transfer, burn, history, adminLogs } = bankCalls(t);

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
      `10 25.50 system->${m.nickname}`,
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

  it('concurrent mints and burns each keep their own outcome and admin log row', async () => {
    // Each member holds 1, is minted 2 and, at the same time, burned 3 twice: a burn passes only when the
    // mint came before it, and never both (1 + 2 = 3). Whatever order the batches take them in, the
    // answers, the balance, the ledger rows and the admin log rows agree.
    const members = await Promise.all(Array.from({ length: 5 }, () => registerMember(t.app, 'mbc')));
    for (const m of members) await mint(t.app, t.admin, m.nickname, 2, '1');
    const results = await Promise.all(
      members.flatMap((m) => [
        call(t.app, t.admin.token, 'POST', '/api/bank/mint', {
          recipientNickName: m.nickname,
          currencyId: 2,
          amount: '2',
          note: 'batch mint',
        }),
        burn(m.nickname, 2, '3', 'batch burn'),
        burn(m.nickname, 2, '3', 'batch burn'),
      ]),
    );
    for (const [i, m] of members.entries()) {
      const [minted, b1, b2] = results.slice(3 * i, 3 * i + 3);
      expect(minted?.statusCode, minted?.body).toBe(200);
      const burns = [b1, b2].filter((r) => r?.statusCode === 200).length;
      expect([b1, b2].filter((r) => r?.statusCode === 409).map((r) => r?.json().message)).toEqual(
        Array(2 - burns).fill('Insufficient funds'),
      );
      expect(burns).toBeLessThanOrEqual(1);
      expect(await balanceOf(t.app, m, 2)).toBe(burns === 1 ? '0' : '3');
      expect((await adminLogs(sql`affected_user_id = ${m.id}`)).map((l) => l.category).sort()).toEqual(
        [4, 4, ...Array(burns).fill(5)].sort(),
      );
      expect((await history(m)).total).toBe(2 + burns);
    }
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
    expect(body.distributed).toBe('9.00');
    expect(body.message).toEqual(expect.any(String));
    expect(body.senderUser.balances.find((b) => b.currencyId === 2)?.amount).toBe('91.00');
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
