/**
 * The bank's histories through the API (SPEC §3, §7 Bank): a member's own rows newest first with their
 * total, filtered by currency, category, amount, other party and date, paged; the admin's list of every
 * row. Stats, supply history and the audit: reports.stats.test.ts.
 */
import type { TransactionsResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bankCalls, describeTxs } from './bank.helpers.ts';
import { call, expectLedgerBalanced, mint, registerMember, uniqueNick, useTestApp } from './helpers.ts';

const t = useTestApp();
const { newCurrency, transfer, burn, history, allHistory } = bankCalls(t);

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
      `3 2.00 ${a.nickname}->${b.nickname}`,
      `3 1.00 ${a.nickname}->${b.nickname}`,
      `10 100.00 system->${a.nickname}`,
      `10 100.00 system->${a.nickname}`,
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
      `3 2.00 ${a.nickname}->${b.nickname}`,
    ]);
    expect((await history(b, { amountAbove: 3.5 })).total).toBe(1);
    expect((await history(b, { amountBelow: '1' })).total).toBe(1);
    expect((await history(b, { nickname: c.nickname })).txs.map((t) => t.balance.amount)).toEqual(['4.00']);
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
    expect(p1.txs.map((t) => t.balance.amount)).toEqual(['11.00', '10.00', '9.00', '8.00', '7.00']);
    expect(p2.txs.map((t) => t.balance.amount)).toEqual(['6.00', '5.00', '4.00', '3.00', '2.00']);
    expect(p3.txs.map((t) => t.balance.amount)).toEqual(['1.00']);
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
    expect(describeTxs(forA.txs)).toEqual([`3 4.00 ${a.nickname}->${b.nickname}`, `10 10.00 system->${a.nickname}`]);
    expect(forA.total).toBe(2);
    const forB = await allHistory({ nickname: b.nickname });
    expect(describeTxs(forB.txs)).toEqual([`3 4.00 ${a.nickname}->${b.nickname}`]);
    // The admin executed the mint: the admin's nickname finds it too.
    const mints = await allHistory({ nickname: 'admin', category: 10, amountAbove: '10', amountBelow: '10' });
    expect(mints.txs.some((t) => t.recipient?.nickname === a.nickname)).toBe(true);
    const page = await allHistory({ paging: { limit: 5, page: 1 } });
    expect(page.txs).toHaveLength(5);
    expect(page.total).toBeGreaterThanOrEqual(3);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('filtered by a currency alone, lists its rows of every category in order, paged, with their total', async () => {
    // One range of the ledger's (currency, category, time) index per category, merged: the pages must be
    // the currency's rows in the list's order, whatever categories they mix.
    const coin = await newCurrency({ transferTax: '0.1' });
    const a = await registerMember(t.app, 'cur');
    const b = await registerMember(t.app, 'cur');
    const ok = async (res: Promise<{ statusCode: number; body: string }>) => {
      const { statusCode, body } = await res;
      expect(statusCode, body).toBe(200);
    };
    await mint(t.app, t.admin, a.nickname, coin.currencyId, '50');
    await mint(t.app, t.admin, a.nickname, 2, '5');
    await ok(transfer(a, b.nickname, coin.currencyId, '10'));
    await ok(transfer(a, b.nickname, 2, '1'));
    await ok(burn(b.nickname, coin.currencyId, '2'));
    await ok(transfer(a, b.nickname, coin.currencyId, '3'));
    await mint(t.app, t.admin, b.nickname, coin.currencyId, '1');
    // mint, transfer + tax, burn, transfer + tax, mint: 7 rows of the coin, in 4 categories.
    const pages: string[] = [];
    for (let page = 1; page <= 2; page++) {
      const got = await allHistory({ currencyId: coin.currencyId, paging: { limit: 5, page } });
      expect(got).toMatchObject({ total: 7, totalCapped: false });
      expect(got.txs.every((x) => x.balance.currencyId === coin.currencyId)).toBe(true);
      pages.push(...describeTxs(got.txs));
    }
    expect(pages).toEqual([
      `10 1.00 system->${b.nickname}`,
      `4 0.30 ${a.nickname}->system`,
      `3 2.70 ${a.nickname}->${b.nickname}`,
      `11 2.00 ${b.nickname}->system`,
      `4 1.00 ${a.nickname}->system`,
      `3 9.00 ${a.nickname}->${b.nickname}`,
      `10 50.00 system->${a.nickname}`,
    ]);
    const taxes = await allHistory({ currencyId: coin.currencyId, category: 4 });
    expect(describeTxs(taxes.txs)).toEqual([`4 0.30 ${a.nickname}->system`, `4 1.00 ${a.nickname}->system`]);

    // A category alone: one range per currency, merged; the pages are the category's rows of every currency.
    const other = await newCurrency({ transferTax: '0.5' });
    await mint(t.app, t.admin, a.nickname, other.currencyId, '4');
    await ok(transfer(a, b.nickname, other.currencyId, '2'));
    const expected = await t.built.database.db.execute<{ id: string }>(
      sql`SELECT id FROM bank_transactions WHERE category = 4 ORDER BY created_at DESC, id DESC LIMIT 10`,
    );
    const byCategory: string[] = [];
    for (let page = 1; page <= 2; page++) {
      const got = await allHistory({ category: 4, paging: { limit: 5, page } });
      expect(got.txs.every((x) => x.category === 4)).toBe(true);
      byCategory.push(...got.txs.map((x) => x._id));
    }
    expect(byCategory).toEqual(expected.rows.map((r) => r.id));
    expect(byCategory[0]).toBe((await allHistory({ currencyId: other.currencyId, category: 4 })).txs[0]?._id);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('filtered by a category and an amount, lists the rows of every currency within the bounds, in order', async () => {
    // One range per currency of the category, each row's amount compared as the index holds it (migration
    // 0041): the pages and the total must be exactly the ledger's matching rows.
    const fine = await newCurrency({ transferTax: '0', precision: 9 });
    const coarse = await newCurrency({ transferTax: '0', precision: 2 });
    const a = await registerMember(t.app, 'amt');
    const b = await registerMember(t.app, 'amt');
    await mint(t.app, t.admin, a.nickname, fine.currencyId, '200000');
    await mint(t.app, t.admin, a.nickname, coarse.currencyId, '500');
    for (const [cur, amount] of [
      [fine.currencyId, '6.999999999'],
      [fine.currencyId, '7'],
      [coarse.currencyId, '9.5'],
      [fine.currencyId, '12.5'],
      [fine.currencyId, '12.500000001'],
      [coarse.currencyId, '11'],
      [fine.currencyId, '123456.123456789'],
      [fine.currencyId, '8'],
      [coarse.currencyId, '7.25'],
      [coarse.currencyId, '12.51'],
    ] as const) {
      const res = await transfer(a, b.nickname, cur, amount);
      expect(res.statusCode, res.body).toBe(200);
    }
    const bounds = { category: 3, amountAbove: '7', amountBelow: '12.5' };
    const expected = await t.built.database.db.execute<{ id: string; currency_id: number }>(
      sql`SELECT id, currency_id FROM bank_transactions WHERE category = 3 AND amount >= 7 AND amount <= 12.5
          ORDER BY created_at DESC, id DESC`,
    );
    const mine = expected.rows.filter((r) => [fine.currencyId, coarse.currencyId].includes(Number(r.currency_id)));
    expect(mine).toHaveLength(6);
    const pages: string[] = [];
    for (let page = 1; (page - 1) * 5 < expected.rows.length; page++) {
      const got = await allHistory({ ...bounds, paging: { limit: 5, page } });
      expect(got).toMatchObject({ total: expected.rows.length, totalCapped: false });
      pages.push(...got.txs.map((x) => x._id));
    }
    expect(pages).toEqual(expected.rows.map((r) => r.id));
    const toB = (await allHistory({ ...bounds, nickname: b.nickname })).txs.map((x) => x.balance.amount);
    expect(toB).toEqual(['7.25', '8.000000000', '11.00', '12.500000000', '9.50', '7.000000000']);
    await expectLedgerBalanced(t.app, t.admin);
  });
});
