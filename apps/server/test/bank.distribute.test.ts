/**
 * Distribution through the API (SPEC §4, §7 Bank distributeCurrency): pro rata to the holders of a target
 * currency in whole units, the remainder staying with the sender, refused when nobody would receive a whole
 * unit, past what the sender holds and for currencies that cannot be transferred.
 */
import type { User } from '@starlight/shared';
import { describe, expect, it } from 'vitest';
import { bankCalls } from './bank.helpers.ts';
import { balanceOf, call, expectLedgerBalanced, mint, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();
const { newCurrency, history } = bankCalls(t);

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
