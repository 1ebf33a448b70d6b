/**
 * The admin's Tnx Logs with an amount bound on a category or a currency (SPEC §2), where each currency's
 * (or category's) range is read by how many of its rows pass the bound: a range with few matches reads
 * them and sorts them, one with many walks its date order. Both kinds in one list must page exactly as
 * the ledger orders its matching rows, with the right total; a range with many matches is counted by the
 * rows outside the bound when those are few. On a database of its own: its rows are written backdated and
 * the rollup rebuilt after, as the scale seed writes them, which the audit beside other tests would take
 * for tampering with the ledger.
 */
import { COUNT_CAP } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FEW_MATCHES } from '../src/modules/reports/amount-bound.queries.ts';
import { rebuildLedgerRollup } from '../src/modules/reports/rollup.queries.ts';
import { bankCalls } from './bank.helpers.ts';
import { expectLedgerBalanced, makeAppOnOwnDatabase, mint, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp({}, { build: () => makeAppOnOwnDatabase('history_amount') });
const { newCurrency, allHistory, transfer } = bankCalls(t);
const db = () => t.built.database.db;

/** Ids of the ledger's rows matching `where`, newest first (ties by id), as every list orders them. */
async function idsInOrder(where: ReturnType<typeof sql>): Promise<string[]> {
  const res = await db().execute<{ id: string }>(
    sql`SELECT id FROM bank_transactions WHERE ${where} ORDER BY created_at DESC, id DESC`,
  );
  return res.rows.map((r) => r.id);
}

/** Every page of the admin's list for `filters`, `limit` rows a page: the ids and each page's total. */
async function allPages(filters: Record<string, unknown>, limit: number) {
  const ids: string[] = [];
  const totals: { total: number; totalCapped: boolean }[] = [];
  for (let page = 1; ; page++) {
    const got = await allHistory({ ...filters, paging: { limit, page } });
    totals.push({ total: got.total, totalCapped: got.totalCapped });
    ids.push(...got.txs.map((x) => x._id));
    if (got.txs.length < limit) return { ids, totals };
  }
}

describe('POST /api/bank/alltransactions with an amount bound', () => {
  it('pages a dense currency and rare ones together, in the ledger order, with the total', async () => {
    const dense = await newCurrency({ transferTax: '0', precision: 2 });
    const rare = await newCurrency({ transferTax: '0', precision: 9 });
    const none = await newCurrency({ transferTax: '0', precision: 2 });
    const a = await registerMember(t.app, 'amb');
    const b = await registerMember(t.app, 'amb');
    for (const c of [dense, rare, none]) await mint(t.app, t.admin, a.nickname, c.currencyId, '10000000');
    // A month of transfers from A to B, as the scale seed writes them: in the dense currency more rows of
    // 100 or more than a range reads whole, between small ones; in the rare one a few among many small
    // ones (some at one instant: ties by id); in the third none at all. A's mints pay for them.
    const matchesDense = FEW_MATCHES + 120;
    // In one transaction, so the audit never sees the rows without their balances.
    await db().transaction(async (tx) => {
      await tx.execute(sql`
        INSERT INTO bank_transactions (id, created_at, category, currency_id, amount, executor_id, sender_id, recipient_id, note)
        SELECT 'x' || lpad(to_hex(c), 3, '0') || lpad(to_hex(i), 20, '0'),
               now() - make_interval(secs => CASE WHEN i % 97 = 0 THEN 3600 ELSE (i * 7919) % 2592000 + 60 END),
               3, c,
               CASE WHEN c = ${dense.currencyId} AND i <= ${matchesDense} THEN 100 + (i % 13)
                    WHEN c = ${rare.currencyId} AND i % 500 = 0 THEN 100.000000001 * (i / 500)
                    WHEN c = ${rare.currencyId} AND i = 7 THEN 99.999999999
                    ELSE (i % 40 + 1)::numeric / 4 END,
               ${a.id}, ${a.id}, ${b.id}, 'amount bound'
        FROM generate_series(1, ${matchesDense + 300}) AS i,
             unnest(ARRAY[${dense.currencyId}, ${rare.currencyId}, ${none.currencyId}]::int[]) AS c`);
      await tx.execute(sql`
        INSERT INTO balances (user_id, currency_id, amount)
        SELECT ${b.id}, c, 0 FROM unnest(ARRAY[${dense.currencyId}, ${rare.currencyId}, ${none.currencyId}]::int[]) AS c
        ON CONFLICT (user_id, currency_id) DO NOTHING`);
      await tx.execute(sql`
        UPDATE balances SET amount = balances.amount + x.d
        FROM (SELECT u, currency_id, sum(d) AS d FROM (
                SELECT recipient_id AS u, currency_id, amount AS d FROM bank_transactions WHERE note = 'amount bound'
                UNION ALL
                SELECT sender_id, currency_id, -amount FROM bank_transactions WHERE note = 'amount bound') y
              GROUP BY u, currency_id) x
        WHERE balances.user_id = x.u AND balances.currency_id = x.currency_id`);
    });
    await db().execute(sql`ANALYZE bank_transactions`);
    await rebuildLedgerRollup(db());

    // The category over every currency: past the counting bound, pages in order from both kinds of range.
    const transfers = { category: 3, amountAbove: '100' };
    const expected = await idsInOrder(sql`category = 3 AND amount >= 100`);
    expect(expected.length).toBeGreaterThan(FEW_MATCHES);
    for (const page of [1, 2, 40]) {
      const got = await allHistory({ ...transfers, paging: { limit: 50, page } });
      expect(got.txs.map((x) => x._id)).toEqual(expected.slice((page - 1) * 50, page * 50));
      const bound = (page - 1) * 50 + COUNT_CAP;
      expect(got).toMatchObject(
        expected.length > bound ? { total: bound, totalCapped: true } : { total: expected.length, totalCapped: false },
      );
    }

    // The rare currency alone, bounded on both sides: its page, the exact total, the amounts in words.
    const rareBounds = { currencyId: rare.currencyId, amountAbove: '100', amountBelow: '500.000000005' };
    const rareExpected = await idsInOrder(
      sql`currency_id = ${rare.currencyId} AND amount >= 100 AND amount <= 500.000000005`,
    );
    expect(rareExpected).toHaveLength(5);
    const rarePages = await allPages(rareBounds, 5);
    expect(rarePages.ids).toEqual(rareExpected);
    expect(rarePages.totals.every((x) => x.total === 5 && !x.totalCapped)).toBe(true);
    const amounts = (await allHistory(rareBounds)).txs.map((x) => x.balance.amount).sort();
    expect(amounts).toEqual(['100.000000001', '200.000000002', '300.000000003', '400.000000004', '500.000000005']);

    // Below a bound in the dense currency (its small rows, a few hundred), and a currency with no match.
    const smallExpected = await idsInOrder(sql`currency_id = ${dense.currencyId} AND amount <= 5`);
    const small = await allPages({ currencyId: dense.currencyId, amountBelow: '5' }, 50);
    expect(small.ids).toEqual(smallExpected);
    expect(small.totals[0]).toEqual({ total: smallExpected.length, totalCapped: false });
    expect(await allHistory({ currencyId: none.currencyId, category: 3, amountAbove: '100' })).toMatchObject({
      txs: [],
      total: 0,
      totalCapped: false,
    });
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('counts a range by the rows outside the bound when few, else by its matches', async () => {
    const cur = await newCurrency({ transferTax: '0', precision: 2 });
    const a = await registerMember(t.app, 'amc');
    const b = await registerMember(t.app, 'amc');
    await mint(t.app, t.admin, a.nickname, cur.currencyId, '100000000');
    // Twice as many transfers as a range reads whole: 150 small ones, the rest from 1,151 up.
    const rows = 2 * FEW_MATCHES + 400;
    await db().transaction(async (tx) => {
      await tx.execute(sql`
        INSERT INTO bank_transactions (id, created_at, category, currency_id, amount, executor_id, sender_id, recipient_id, note)
        SELECT 'y' || lpad(to_hex(i), 23, '0'), now() - make_interval(secs => (i * 7919) % 2592000 + 60), 3,
               ${cur.currencyId}, CASE WHEN i <= 150 THEN 1 ELSE 1000 + i END, ${a.id}, ${a.id}, ${b.id}, 'outside'
        FROM generate_series(1, ${rows}) AS i`);
      await tx.execute(sql`
        INSERT INTO balances (user_id, currency_id, amount) VALUES (${b.id}, ${cur.currencyId}, 0)
        ON CONFLICT (user_id, currency_id) DO NOTHING`);
      const sum = sql`(SELECT sum(amount) FROM bank_transactions WHERE note = 'outside')`;
      await tx.execute(sql`UPDATE balances SET amount = amount + ${sum}
        WHERE user_id = ${b.id} AND currency_id = ${cur.currencyId}`);
      await tx.execute(sql`UPDATE balances SET amount = amount - ${sum}
        WHERE user_id = ${a.id} AND currency_id = ${cur.currencyId}`);
    });
    await db().execute(sql`ANALYZE bank_transactions`);
    await rebuildLedgerRollup(db());
    // Rows from the rollup's watermark on count too: a transfer made through the API after the rebuild.
    const sent = await transfer(a, b.nickname, cur.currencyId, '7000');
    expect(sent.statusCode, sent.body).toBe(200);

    const c = cur.currencyId;
    const cases = [
      // Nearly every row matches: the 150 below the bound are counted instead (and the mint's category).
      { filters: { currencyId: c, amountAbove: '500' }, where: sql`currency_id = ${c} AND amount >= 500` },
      // Both bounds: the rows under one and over the other.
      {
        filters: { currencyId: c, category: 3, amountAbove: '500', amountBelow: '9000' },
        where: sql`currency_id = ${c} AND category = 3 AND amount >= 500 AND amount <= 9000`,
      },
      // Many on both sides of the bound: the matches are counted.
      {
        filters: { currencyId: c, category: 3, amountAbove: '6400' },
        where: sql`currency_id = ${c} AND category = 3 AND amount >= 6400`,
      },
    ];
    for (const { filters, where } of cases) {
      const expected = await idsInOrder(where);
      expect(expected.length).toBeGreaterThan(FEW_MATCHES);
      const first = await allHistory({ ...filters, paging: { limit: 50, page: 1 } });
      expect(first.txs.map((x) => x._id)).toEqual(expected.slice(0, 50));
      expect({ total: first.total, totalCapped: first.totalCapped }).toEqual({
        total: expected.length,
        totalCapped: false,
      });
      const last = Math.ceil(expected.length / 50);
      const end = await allHistory({ ...filters, paging: { limit: 50, page: last } });
      expect(end.txs.map((x) => x._id)).toEqual(expected.slice((last - 1) * 50));
      expect(end.total).toBe(expected.length);
    }
    await expectLedgerBalanced(t.app, t.admin);
  });
});
