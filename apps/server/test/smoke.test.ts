import { describe, expect, it } from 'vitest';
import { balanceOf, call, expectLedgerBalanced, mint, registerMember, useTestApp } from './helpers.ts';

describe('a taxed transfer, end to end', () => {
  const t = useTestApp();

  it('moves SD from one member to another with the 1% tax to the collector', async () => {
    const { app, admin } = t;
    const a = await registerMember(app);
    const b = await registerMember(app);
    await mint(app, admin, a.nickname, 1, '100');
    const res = await call(app, a.token, 'POST', '/api/bank/p2pTransfer', {
      recipientNickName: b.nickname,
      currencyId: 1,
      amount: '50',
      note: 'hi',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(`Sent 49.50 SD to ${b.nickname} (tax 0.50 SD)`);
    expect(await balanceOf(app, a, 1)).toBe('50');
    expect(await balanceOf(app, b, 1)).toBe('49.5');
    await expectLedgerBalanced(app, admin);
  });
});
