/**
 * Deep ledger histories (SPEC §2 Tnx Logs, the member's transaction log): a total that stays the same from
 * page to page, a jump to any page, and a jump to a date (`seekDate`: the page holding the newest row at or
 * before that day), for a member's own history and the admin's lists; a member sees only their own rows.
 * And the /analytics page's one call (`supplyHistories`), which answers every currency as `supplyHistory`
 * answers one. On a database of its own: its rows are written backdated, as the scale seed writes them,
 * and the rollup is rebuilt over them, which the audit beside other tests would take for tampering.
 */
import type { SupplyHistoriesResponse, SupplyHistoryResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rebuildLedgerRollup } from '../src/modules/reports/rollup.queries.ts';
import { bankCalls } from './bank.helpers.ts';
import {
  call,
  expectLedgerBalanced,
  type Member,
  makeAppOnOwnDatabase,
  mint,
  registerMember,
  useTestApp,
} from './helpers.ts';

const t = useTestApp({}, { build: () => makeAppOnOwnDatabase('history_deep') });
const { newCurrency, transfer, history, allHistory } = bankCalls(t);
const db = () => t.built.database.db;

/** Ids and times of the ledger's rows matching `where`, newest first (ties by id), as every list orders them. */
async function rowsInOrder(where: ReturnType<typeof sql>): Promise<Array<{ id: string; at: Date }>> {
  const res = await db().execute<{ id: string; created_at: string | Date }>(
    sql`SELECT id, created_at FROM bank_transactions WHERE ${where} ORDER BY created_at DESC, id DESC`,
  );
  return res.rows.map((r) => ({ id: r.id, at: new Date(r.created_at) }));
}

/** The index of the first row at or before the end of `day` (UTC) in `rows` (newest first). */
const firstAtOrBefore = (rows: Array<{ at: Date }>, day: string) =>
  rows.findIndex((r) => r.at.getTime() < Date.parse(`${day}T00:00:00Z`) + 86_400_000);

const dayOf = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

describe('deep ledger histories', () => {
  let a: Member;
  let b: Member;
  let c: Member;
  let currencyId: number;

  it('keeps the total from page to page and jumps to a page and to a date, for a member and the admin', async () => {
    const cur = await newCurrency({ transferTax: '0', precision: 2 });
    currencyId = cur.currencyId;
    a = await registerMember(t.app, 'deep');
    b = await registerMember(t.app, 'deep');
    c = await registerMember(t.app, 'deep');
    await mint(t.app, t.admin, a.nickname, currencyId, '1000000');
    await mint(t.app, t.admin, c.nickname, currencyId, '100');
    for (let i = 0; i < 3; i++) expect((await transfer(c, b.nickname, currencyId, '1')).statusCode).toBe(200);
    // 1,200 transfers from A to B, one an hour over the last 50 days (a few at one instant: ties by id),
    // with their balances in one transaction; then the rollup is rebuilt over them.
    await db().transaction(async (tx) => {
      await tx.execute(sql`
        INSERT INTO bank_transactions (id, created_at, category, currency_id, amount, executor_id, sender_id, recipient_id, note)
        SELECT 'd' || lpad(to_hex(i), 23, '0'),
               date_trunc('hour', now()) - make_interval(hours => i - i % 7 % 2), 3, ${currencyId}, 1,
               ${a.id}, ${a.id}, ${b.id}, 'deep history'
        FROM generate_series(1, 1200) AS i`);
      await tx.execute(sql`
        INSERT INTO balances (user_id, currency_id, amount) VALUES (${b.id}, ${currencyId}, 0)
        ON CONFLICT (user_id, currency_id) DO NOTHING`);
      await tx.execute(sql`UPDATE balances SET amount = amount - 1200
        WHERE user_id = ${a.id} AND currency_id = ${currencyId}`);
      await tx.execute(sql`UPDATE balances SET amount = amount + 1200
        WHERE user_id = ${b.id} AND currency_id = ${currencyId}`);
    });
    await rebuildLedgerRollup(db());
    await db().execute(sql`ANALYZE bank_transactions`);

    // A's own history: the same total on every page, any page by its number.
    const mine = await rowsInOrder(sql`sender_id = ${a.id} OR recipient_id = ${a.id}`);
    expect(mine).toHaveLength(1201);
    for (const page of [1, 2, 17, 25]) {
      const got = await history(a, { paging: { limit: 50, page } });
      expect(got).toMatchObject({ total: 1201, totalCapped: false });
      expect(got.txs.map((x) => x._id)).toEqual(mine.slice((page - 1) * 50, page * 50).map((r) => r.id));
    }
    // A date: the page holding the newest row at or before it, and its number.
    for (const daysAgo of [0, 9, 31, 49, 400]) {
      const day = dayOf(daysAgo);
      const k = firstAtOrBefore(mine, day);
      const got = await history(a, { paging: { limit: 50, page: 1 }, seekDate: day });
      const at = k === -1 ? mine.length - 1 : k;
      expect(got.page).toBe(Math.floor(at / 50) + 1);
      expect(got.total).toBe(1201);
      expect(got.txs.map((x) => x._id)).toEqual(
        mine.slice(((got.page ?? 1) - 1) * 50, (got.page ?? 1) * 50).map((r) => r.id),
      );
      if (k !== -1) expect(got.txs.map((x) => x._id)).toContain(mine[k]?.id);
    }
    // A page without a seek says nothing of `page`.
    expect((await history(a)).page).toBeUndefined();

    // C sees only their own rows, seeking too: none of A's.
    const cs = await rowsInOrder(sql`sender_id = ${c.id} OR recipient_id = ${c.id}`);
    const cPage = await history(c, { paging: { limit: 5, page: 1 }, seekDate: dayOf(20) });
    expect(cPage).toMatchObject({ total: cs.length, totalCapped: false, page: 1 });
    expect(cPage.txs.map((x) => x._id)).toEqual(cs.slice(0, 5).map((r) => r.id));
    expect((await history(c, { nickname: a.nickname })).txs).toEqual([]);

    // The admin's whole list: the exact total from the rollup on every page, the date's page likewise.
    const all = await rowsInOrder(sql`true`);
    for (const page of [1, 3, 20]) {
      const got = await allHistory({ paging: { limit: 50, page } });
      expect(got).toMatchObject({ total: all.length, totalCapped: false });
      expect(got.txs.map((x) => x._id)).toEqual(all.slice((page - 1) * 50, page * 50).map((r) => r.id));
    }
    for (const daysAgo of [3, 30]) {
      const day = dayOf(daysAgo);
      const k = firstAtOrBefore(all, day);
      const got = await allHistory({ paging: { limit: 20, page: 1 }, seekDate: day });
      expect(got.page).toBe(Math.floor(k / 20) + 1);
      const p = got.page ?? 0;
      expect(got.txs.map((x) => x._id)).toEqual(all.slice((p - 1) * 20, p * 20).map((r) => r.id));
      expect(got.txs.map((x) => x._id)).toContain(all[k]?.id);
      expect(got.total).toBe(all.length);
    }
    // The admin's list of one member (a nickname) and of one currency seek the same way.
    const byNick = await allHistory({ paging: { limit: 10, page: 1 }, nickname: a.nickname, seekDate: dayOf(12) });
    const k = firstAtOrBefore(mine, dayOf(12));
    expect(byNick).toMatchObject({ total: 1201, page: Math.floor(k / 10) + 1 });
    expect(byNick.txs.map((x) => x._id)).toEqual(
      mine
        .slice(Math.floor(k / 10) * 10)
        .slice(0, 10)
        .map((r) => r.id),
    );
    expect(byNick.txs.map((x) => x._id)).toContain(mine[k]?.id);
    const ofCurrency = await rowsInOrder(sql`currency_id = ${currencyId}`);
    const byCur = await allHistory({ paging: { limit: 10, page: 1 }, currencyId, seekDate: dayOf(12) });
    const kc = firstAtOrBefore(ofCurrency, dayOf(12));
    expect(byCur).toMatchObject({ total: ofCurrency.length, page: Math.floor(kc / 10) + 1 });
    expect(byCur.txs.map((x) => x._id)).toEqual(
      ofCurrency
        .slice(Math.floor(kc / 10) * 10)
        .slice(0, 10)
        .map((r) => r.id),
    );
    expect(byCur.txs.map((x) => x._id)).toContain(ofCurrency[kc]?.id);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('answers every currency in one supplyHistories call, as supplyHistory answers each', async () => {
    for (const interval of ['1h', '1d'] as const) {
      const res = await call(t.app, undefined, 'POST', '/api/bank/supplyHistories', { interval, limit: 72 });
      expect(res.statusCode, res.body).toBe(200);
      const { histories } = res.json<SupplyHistoriesResponse>();
      const ids = (await db().execute<{ id: number }>(sql`SELECT currency_id AS id FROM currencies ORDER BY 1`)).rows;
      expect(histories.map((h) => h.currencyId)).toEqual(ids.map((r) => Number(r.id)));
      for (const h of histories) {
        const one = await call(t.app, undefined, 'POST', '/api/bank/supplyHistory', {
          currencyId: h.currencyId,
          interval,
          limit: 72,
        });
        expect(h.points).toEqual(one.json<SupplyHistoryResponse>().points);
        expect(h.points).toHaveLength(72);
      }
      const ours = histories.find((h) => h.currencyId === currencyId);
      expect(ours?.points.at(-1)?.supply).toBe('1000100.00');
    }
  });
});
