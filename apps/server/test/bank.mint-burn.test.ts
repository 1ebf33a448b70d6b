/**
 * Mint and burn through the API (SPEC §4, §7 Bank; DESIGN §4): for admins only, with a note and admin log
 * rows 4 and 5, refused for currencies that cannot be minted or burned and past what a member holds, and
 * each concurrent mint and burn keeping its own outcome.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bankCalls, describeTxs } from './bank.helpers.ts';
import { balanceOf, call, expectLedgerBalanced, mint, registerMember, uniqueNick, useTestApp } from './helpers.ts';

const t = useTestApp();
const { newCurrency, burn, history, adminLogs } = bankCalls(t);

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
    expect(prec.json().message).toBe('Amount can have at most 2 decimals');
    expect(await balanceOf(t.app, m, 2)).toBe('0');
  });
});
