/**
 * The settlement export's keyset pages (DESIGN §11.6) across the list's two groups: pending first, then
 * settled, each newest first. Read three rows a page, a member's deposits come out once each, in the
 * list's order, however the pages fall on the pending/settled boundary.
 */
import { describe, expect, it } from 'vitest';
import { findSettlementsAfter } from '../src/modules/settlements/settlements-export.queries.ts';
import { bankCalls } from './bank.helpers.ts';
import { call, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();

describe('the settlement export pages', () => {
  it('walks pending then settled rows in small pages with no row twice and none left out', async () => {
    const coin = await bankCalls(t).newCurrency({ canDeposit: true, depositTax: 0 });
    const m = await registerMember(t.app, 'xp');
    const made: string[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await call(t.app, m.token, 'POST', '/api/bank/deposit', {
        currencyId: coin.currencyId,
        amount: String(i + 1),
        walletAddress: '0xabcdef0123456789abcdef0123456789abcdef01',
        reference: `paging ${i}`,
      });
      expect(res.statusCode, res.body).toBe(200);
      made.push(res.json<{ settlement: { _id: string } }>().settlement._id);
    }
    // The first, third and sixth are settled (approved or refused); the others stay pending.
    for (const [i, approve] of [
      [0, true],
      [2, false],
      [5, true],
    ] as const) {
      const res = await call(t.app, t.admin.token, 'POST', '/api/bank/settle', {
        settlementId: made[i],
        approve,
        note: '',
      });
      expect(res.statusCode, res.body).toBe(200);
    }

    const walked: Array<{ id: string; state: string; nickname: string }> = [];
    let after: Awaited<ReturnType<typeof findSettlementsAfter>>[number] | null = null;
    for (;;) {
      const page = await findSettlementsAfter(t.built.database.db, { kind: 'deposit' }, after, 3);
      walked.push(...page);
      if (page.length < 3) break;
      after = page[page.length - 1] ?? null;
    }
    expect(new Set(walked.map((s) => s.id)).size).toBe(walked.length);
    const firstSettled = walked.findIndex((s) => s.state !== 'pending');
    expect(walked.slice(firstSettled).every((s) => s.state !== 'pending')).toBe(true);
    const mine = walked.filter((s) => s.nickname === m.nickname).map((s) => s.id);
    // Pending newest first (6, 4, 3, 1), then settled newest first (5, 2, 0).
    expect(mine).toEqual([made[6], made[4], made[3], made[1], made[5], made[2], made[0]]);
  });
});
