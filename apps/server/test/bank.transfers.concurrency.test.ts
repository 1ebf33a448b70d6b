import { randomBytes } from 'node:crypto';
import type { TransactionsResponse } from '@starlight/shared';
import { describe, expect, it } from 'vitest';
import { balanceOf, call, expectLedgerBalanced, type Member, mint, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();

function transfer(from: Member, to: Member, amount: string, headers: Record<string, string> = {}) {
  return call(
    t.app,
    from.token,
    'POST',
    '/api/bank/p2pTransfer',
    { recipientNickName: to.nickname, currencyId: 2, amount },
    headers,
  );
}

async function transferCount(member: Member): Promise<number> {
  const res = await call(t.app, member.token, 'POST', '/api/bank/transactions', {
    paging: { limit: 5, page: 1 },
    category: 3,
  });
  expect(res.statusCode).toBe(200);
  return res.json<TransactionsResponse>().total;
}

/**
 * 200 transfers at once, alternately A to B (`ab`) and B to A (`ba`), in SN. Expects no 5xx and only 200
 * or 409; returns how many went through each way and both balances after.
 */
async function crossTransfers(a: Member, b: Member, ab: string, ba: string) {
  const results = await Promise.all(
    Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? transfer(a, b, ab) : transfer(b, a, ba))),
  );
  const codes = results.map((r) => r.statusCode);
  expect(codes.filter((c) => c >= 500)).toEqual([]);
  expect(codes.every((c) => c === 200 || c === 409)).toBe(true);
  return {
    okAB: results.filter((r, i) => i % 2 === 0 && r.statusCode === 200).length,
    okBA: results.filter((r, i) => i % 2 === 1 && r.statusCode === 200).length,
    balA: await balanceOf(t.app, a, 2),
    balB: await balanceOf(t.app, b, 2),
  };
}

describe('concurrent money movements', () => {
  it('100 parallel transfers of 10 SN from 100 SN: exactly 10 succeed, the rest are refused', async () => {
    const a = await registerMember(t.app, 'race');
    const b = await registerMember(t.app, 'race');
    await mint(t.app, t.admin, a.nickname, 2, '100');
    const results = await Promise.all(Array.from({ length: 100 }, () => transfer(a, b, '10')));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(10);
    expect(codes.filter((c) => c === 409)).toHaveLength(90);
    for (const r of results.filter((x) => x.statusCode === 409)) {
      expect(r.json()).toEqual({ message: 'Insufficient funds' });
    }
    expect(await balanceOf(t.app, a, 2)).toBe('0');
    expect(await balanceOf(t.app, b, 2)).toBe('100');
    expect(await transferCount(b)).toBe(10);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('200 crossing transfers between two members: no 5xx and nothing created or lost', async () => {
    const a = await registerMember(t.app, 'cross');
    const b = await registerMember(t.app, 'cross');
    // Enough for every transfer each sends, in whatever order they run: 100 x 1.25 and 100 x 0.75.
    await mint(t.app, t.admin, a.nickname, 2, '125');
    await mint(t.app, t.admin, b.nickname, 2, '75');
    const { okAB, okBA, balA, balB } = await crossTransfers(a, b, '1.25', '0.75');
    expect([okAB, okBA]).toEqual([100, 100]);
    // A: 125 - 100 x 1.25 + 100 x 0.75 = 75; B: 75 + 125 - 75 = 125.
    expect([balA, balB]).toEqual(['75', '125']);
    expect(await transferCount(a)).toBe(200);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('crossing transfers that overdraw: the totals stay conserved', async () => {
    const a = await registerMember(t.app, 'tight');
    const b = await registerMember(t.app, 'tight');
    await mint(t.app, t.admin, a.nickname, 2, '5');
    await mint(t.app, t.admin, b.nickname, 2, '5');
    const { okAB, okBA, balA, balB } = await crossTransfers(a, b, '1', '1');
    expect(BigInt(balA) + BigInt(balB)).toBe(10n);
    expect(balA).toBe(String(5 - okAB + okBA));
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('20 concurrent requests with one Idempotency-Key debit once and all answer alike', async () => {
    const a = await registerMember(t.app, 'idem');
    const b = await registerMember(t.app, 'idem');
    await mint(t.app, t.admin, a.nickname, 2, '100');
    const key = { 'idempotency-key': `k-${randomBytes(8).toString('hex')}` };
    const results = await Promise.all(Array.from({ length: 20 }, () => transfer(a, b, '7', key)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    const first = results[0]?.body;
    expect(results.every((r) => r.body === first)).toBe(true);
    expect(await balanceOf(t.app, a, 2)).toBe('93');
    expect(await balanceOf(t.app, b, 2)).toBe('7');
    expect(await transferCount(b)).toBe(1);
    await expectLedgerBalanced(t.app, t.admin);
  });
});
