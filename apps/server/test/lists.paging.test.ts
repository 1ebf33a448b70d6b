/**
 * The paged lists at a size past the counting bound. On a database of its own (rows are
 * bulk-inserted by SQL): a total beyond COUNT_CAP answers `total` = the bound and `totalCapped: true`,
 * pages still follow one another in order (newest first, ties by id) with nothing skipped or repeated,
 * a filter narrows to an exact total, and a member's history never shows another member's rows.
 */
import {
  CHECKOUT_STATE,
  COUNT_CAP,
  type ForgeProcessesResponse,
  type GetAccessLogsResponse,
  type GetAdminLogsResponse,
  type GetSettlementsResponse,
  type TransactionsResponse,
} from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { LiveChanges } from '../src/lib/live-changes.ts';
import { rebuildLedgerRollup, tickLedgerRollup } from '../src/modules/reports/rollup.queries.ts';
import { publishedPackage } from './checkout.helpers.ts';
import { forgeCalls, forgeCurrencies } from './forge.helpers.ts';
import {
  call,
  expectLedgerBalanced,
  type Member,
  makeAppOnOwnDatabase,
  mint,
  PASSWORD,
  registerMember,
  useTestApp,
} from './helpers.ts';

const t = useTestApp({}, { build: () => makeAppOnOwnDatabase('lists') });

const rowsOf = async <T>(q: ReturnType<typeof sql>) => (await t.built.database.db.execute(q)).rows as T[];

/** Ids the database orders as the lists must: newest first, ties by id. */
async function idsInOrder(table: string, where: ReturnType<typeof sql>, limit: number, offset: number) {
  const rows = await rowsOf<{ id: string }>(
    sql`SELECT id FROM ${sql.raw(table)} WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`,
  );
  return rows.map((r) => r.id);
}

describe('Access Logs past the counting bound', () => {
  const extra = 50;
  let heavy: Member;
  let light: Member;

  it('counts to the bound, says so, and pages on in order', async () => {
    heavy = await registerMember(t.app, 'heavy');
    light = await registerMember(t.app, 'light');
    // COUNT_CAP + extra sign-ins of one member over the last days, a few sharing one instant (ties by
    // id), from two networks; and three of another member.
    await t.built.database.db.execute(sql`
      INSERT INTO access_logs (id, created_at, user_id, address, login_type)
      SELECT 'a' || lpad(to_hex(i), 23, '0'), now() - make_interval(secs => (i / 3)),
             ${heavy.id}, CASE WHEN i % 10 = 0 THEN '203.0.113.' || (i % 200) ELSE '198.51.100.7' END,
             CASE WHEN i % 100 = 0 THEN 2 ELSE 1 END
      FROM generate_series(1, ${COUNT_CAP + extra}) i`);
    await t.built.database.db.execute(sql`
      INSERT INTO access_logs (id, created_at, user_id, address, login_type)
      SELECT 'b' || lpad(to_hex(i), 23, '0'), now() - make_interval(days => i), ${light.id}, '192.0.2.1', 1
      FROM generate_series(1, 3) i`);

    const page = async (body: Record<string, unknown>) => {
      const res = await call(t.app, t.admin.token, 'POST', '/api/audit/getAccessLogs', body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<GetAccessLogsResponse>();
    };
    const first = await page({ paging: { limit: 50, page: 1 } });
    expect(first.total).toBe(COUNT_CAP);
    expect(first.totalCapped).toBe(true);
    expect(first.logs.map((l) => l._id)).toEqual(await idsInOrder('access_logs', sql`true`, 50, 0));

    const second = await page({ paging: { limit: 50, page: 2 } });
    expect(second.totalCapped).toBe(true);
    expect(second.logs.map((l) => l._id)).toEqual(await idsInOrder('access_logs', sql`true`, 50, 50));

    // Past the first bound the count moves with the page: the last page answers the exact total.
    const all = Number((await rowsOf<{ n: string }>(sql`SELECT count(*) AS n FROM access_logs`))[0]?.n);
    const lastPage = Math.ceil(all / 50);
    const last = await page({ paging: { limit: 50, page: lastPage } });
    expect(last.totalCapped).toBe(false);
    expect(last.total).toBe(all);
    expect(last.logs.map((l) => l._id)).toEqual(await idsInOrder('access_logs', sql`true`, 50, (lastPage - 1) * 50));
    expect((await page({ paging: { limit: 50, page: lastPage + 1 } })).logs).toEqual([]);
  });

  it('narrows by member (any case), login type and address prefix to exact totals', async () => {
    const page = async (body: Record<string, unknown>) =>
      (await call(t.app, t.admin.token, 'POST', '/api/audit/getAccessLogs', body)).json<GetAccessLogsResponse>();
    const paging = { limit: 10, page: 1 };

    // Their sign-in at registration and the three inserted.
    const mine = await page({ paging, user: light.nickname.toUpperCase() });
    expect(mine).toMatchObject({ total: 4, totalCapped: false });
    expect(mine.logs.map((l) => l.user.nickname)).toEqual(Array(4).fill(light.nickname));

    const wallet = await page({ paging, user: heavy.nickname, category: 2 });
    expect(wallet).toMatchObject({ total: Math.floor((COUNT_CAP + extra) / 100), totalCapped: false });
    expect(wallet.logs.every((l) => l.loginType === 2)).toBe(true);

    // An address filter matches addresses that start with it: 203.0.113.5 and 203.0.113.50-59 and 203.0.113.150-159.
    const net = await page({ paging, address: '203.0.113.5' });
    const expected = await rowsOf<{ n: string }>(
      sql`SELECT count(*) AS n FROM access_logs WHERE starts_with(address, '203.0.113.5')`,
    );
    expect(net.total).toBe(Number(expected[0]?.n));
    expect(net.total).toBeGreaterThan(0);
    expect(net.logs.every((l) => l.address.startsWith('203.0.113.5'))).toBe(true);
    expect(await page({ paging, address: '192.0.2.' })).toMatchObject({ total: 3, totalCapped: false });

    // Dates narrow too; an unknown nickname matches nothing.
    const today = new Date().toISOString().slice(0, 10);
    expect(await page({ paging, user: light.nickname, endDate: today })).toMatchObject({ total: 4 });
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect(await page({ paging, user: light.nickname, endDate: yesterday })).toMatchObject({ total: 3 });
    expect(await page({ paging, user: 'nobodyatall' })).toMatchObject({ total: 0, totalCapped: false, logs: [] });
  });

  it("totals one member's whole log from the count kept on write, exact past the bound", async () => {
    const page = async (body: Record<string, unknown>) =>
      (await call(t.app, t.admin.token, 'POST', '/api/audit/getAccessLogs', body)).json<GetAccessLogsResponse>();
    const counted = async (id: string) =>
      Number((await rowsOf<{ n: string }>(sql`SELECT count(*) AS n FROM access_logs WHERE user_id = ${id}`))[0]?.n);
    const paging = { limit: 50, page: 1 };
    // Their sign-in at registration and the bulk-inserted ones: past the bound, not capped.
    const heavyLog = await page({ paging, user: heavy.nickname });
    expect(heavyLog).toMatchObject({ total: COUNT_CAP + extra + 1, totalCapped: false });
    expect(heavyLog.total).toBe(await counted(heavy.id));
    expect(heavyLog.logs.map((l) => l._id)).toEqual(await idsInOrder('access_logs', sql`user_id = ${heavy.id}`, 50, 0));

    // One statement signing both members in twice, and a sign-in through the API: the counts follow.
    await t.built.database.db.execute(sql`
      INSERT INTO access_logs (id, user_id, address, login_type)
      SELECT 'e' || lpad(to_hex(i), 23, '0'), CASE WHEN i % 2 = 0 THEN ${heavy.id} ELSE ${light.id} END, '192.0.2.9', 1
      FROM generate_series(1, 4) i`);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { nickOrEmail: light.nickname, password: PASSWORD },
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
    expect(await page({ paging, user: light.nickname })).toMatchObject({ total: 4 + 2 + 1, totalCapped: false });
    expect((await page({ paging, user: heavy.nickname })).total).toBe(COUNT_CAP + extra + 3);
    for (const m of [heavy, light]) expect((await page({ paging, user: m.nickname })).total).toBe(await counted(m.id));
  });

  it('Admin Logs: filters by admin, affected member, category and address with capped totals', async () => {
    const admins = await rowsOf<{ id: string }>(sql`SELECT id FROM users WHERE nickname = 'admin'`);
    const adminId = admins[0]?.id as string;
    await t.built.database.db.execute(sql`
      INSERT INTO admin_logs (id, created_at, admin_id, affected_user_id, address, category, action)
      SELECT 'c' || lpad(to_hex(i), 23, '0'), now() - make_interval(secs => i), ${adminId},
             CASE WHEN i % 2 = 0 THEN ${light.id} ELSE NULL END, '10.0.' || (i % 3) || '.1', 1 + i % 4, 'bulk ' || i
      FROM generate_series(1, ${COUNT_CAP + 10}) i`);
    const page = async (body: Record<string, unknown>) => {
      const res = await call(t.app, t.admin.token, 'POST', '/api/audit/getAdminLogs', body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<GetAdminLogsResponse>();
    };
    const paging = { limit: 20, page: 1 };
    const first = await page({ paging, adminUser: 'ADMIN' });
    expect(first).toMatchObject({ total: COUNT_CAP, totalCapped: true });
    expect(first.logs.map((l) => l._id)).toEqual(await idsInOrder('admin_logs', sql`true`, 20, 0));
    const affected = await page({ paging, affectedUser: light.nickname, category: 3 });
    const n = await rowsOf<{ n: string }>(
      sql`SELECT count(*) AS n FROM admin_logs WHERE affected_user_id = ${light.id} AND category = 3`,
    );
    expect(affected).toMatchObject({ total: Number(n[0]?.n), totalCapped: false });
    expect(affected.logs.every((l) => l.affectedUser?.nickname === light.nickname && l.category === 3)).toBe(true);
    const net = await page({ paging, address: '10.0.2.' });
    expect(net.totalCapped).toBe(false);
    expect(net.logs.every((l) => l.address === '10.0.2.1')).toBe(true);
  });

  it('a whole list past twice the bound answers from the table estimate; one under it, and deep pages, are counted', async () => {
    // Access Logs grows past twice the bound; the statistics then say so (ANALYZE, as autovacuum would).
    await t.built.database.db.execute(sql`
      INSERT INTO access_logs (id, created_at, user_id, address, login_type)
      SELECT 'd' || lpad(to_hex(i), 23, '0'), now() - make_interval(days => 10, secs => i), ${light.id}, '192.0.2.9', 3
      FROM generate_series(1, ${COUNT_CAP}) i`);
    await t.built.database.db.execute(sql`ANALYZE access_logs, admin_logs, settlements`);
    const count = async (table: string) =>
      Number((await rowsOf<{ n: string }>(sql`SELECT count(*) AS n FROM ${sql.raw(table)}`))[0]?.n);
    const logs = await count('access_logs');
    expect(logs).toBeGreaterThan(2 * COUNT_CAP);
    const post = async <T>(url: string, body: Record<string, unknown>) => {
      const res = await call(t.app, t.admin.token, 'POST', url, body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<T>();
    };
    const access = (page: number) =>
      post<GetAccessLogsResponse>('/api/audit/getAccessLogs', { paging: { limit: 50, page } });
    expect(await access(1)).toMatchObject({ total: COUNT_CAP, totalCapped: true });
    // From page 201 the bound (offset + COUNT_CAP) is past half the estimate: counted, capped, then exact.
    expect(await access(201)).toMatchObject({ total: 200 * 50 + COUNT_CAP, totalCapped: true });
    const last = await access(Math.ceil(logs / 50));
    expect(last).toMatchObject({ total: logs, totalCapped: false });
    expect(last.logs.map((l) => l._id)).toEqual(
      await idsInOrder('access_logs', sql`true`, 50, (Math.ceil(logs / 50) - 1) * 50),
    );
    // Admin Logs (just past the bound) and Settlements (a few rows): counted, exact where under the bound.
    expect(
      await post<GetAdminLogsResponse>('/api/audit/getAdminLogs', { paging: { limit: 50, page: 1 } }),
    ).toMatchObject({
      total: COUNT_CAP,
      totalCapped: true,
    });
    const admins = await count('admin_logs');
    expect(
      await post<GetAdminLogsResponse>('/api/audit/getAdminLogs', {
        paging: { limit: 50, page: Math.ceil(admins / 50) },
      }),
    ).toMatchObject({ total: admins, totalCapped: false });
    expect(
      await post<GetSettlementsResponse>('/api/bank/getSettlements', { paging: { limit: 50, page: 1 } }),
    ).toMatchObject({
      total: await count('settlements'),
      totalCapped: false,
    });
  });
});

describe('member history past the counting bound', () => {
  it('a member sees only their own rows, in order, one total on every page; the other party narrows; the admin finds an executor', async () => {
    const a = await registerMember(t.app, 'hista');
    const b = await registerMember(t.app, 'histb');
    const c = await registerMember(t.app, 'histc');
    // Starnote (2): no transfer tax, so a transfer is one row.
    await mint(t.app, t.admin, a.nickname, 2, '100');
    await mint(t.app, t.admin, c.nickname, 2, '100');
    const transfer = async (from: Member, to: Member, amount: string) => {
      const res = await call(t.app, from.token, 'POST', '/api/bank/p2pTransfer', {
        recipientNickName: to.nickname,
        currencyId: 2,
        amount,
        note: 'test',
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await transfer(a, b, '10');
    await transfer(c, b, '5');
    await transfer(b, a, '1');
    const history = async (who: Member, body: Record<string, unknown>) => {
      const res = await call(t.app, who.token, 'POST', '/api/bank/transactions', body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<TransactionsResponse>();
    };
    // Sizes probed while b has three rows: kept for a while (a plan hint), stale once b has thousands below,
    // which must not change a page between them.
    expect(await history(a, { paging: { limit: 10, page: 1 }, nickname: b.nickname })).toMatchObject({ total: 2 });
    expect(await history(b, { paging: { limit: 10, page: 1 }, nickname: a.nickname })).toMatchObject({ total: 2 });
    // Balanced pairs a -> b and b -> a of the same amount (balances stay what the ledger says), more
    // than the bound, all at one instant (ties ordered by id).
    await t.built.database.db.execute(sql`
      INSERT INTO bank_transactions (id, category, currency_id, amount, executor_id, sender_id, recipient_id, note)
      SELECT 'd' || lpad(to_hex(i), 23, '0'), 3, 2, 0.5,
             CASE WHEN i % 2 = 0 THEN ${a.id} ELSE ${b.id} END,
             CASE WHEN i % 2 = 0 THEN ${a.id} ELSE ${b.id} END,
             CASE WHEN i % 2 = 0 THEN ${b.id} ELSE ${a.id} END, 'pair'
      FROM generate_series(1, ${COUNT_CAP + 100}) i`);
    // Written by SQL, not posted: name a and b as changed, as the ledger's posting does, so no total kept
    // from the probes above (for TOTALS_TTL_MS) answers for the lists these rows grew.
    const posted = new LiveChanges();
    posted.touchParties([{ senderId: a.id, recipientId: b.id, executorId: a.id }]);
    t.app.live.changes.add(posted);

    const own = sql`(sender_id = ${a.id} OR recipient_id = ${a.id})`;
    const all = Number(
      (await rowsOf<{ n: string }>(sql`SELECT count(*) AS n FROM bank_transactions WHERE ${own}`))[0]?.n,
    );
    // Past COUNT_CAP the ledger's lists still count exactly (up to LEDGER_COUNT_CAP), the same on every page.
    expect(all).toBeGreaterThan(COUNT_CAP);
    const p1 = await history(a, { paging: { limit: 50, page: 1 } });
    expect(p1).toMatchObject({ total: all, totalCapped: false });
    expect(p1.txs.map((x) => x._id)).toEqual(await idsInOrder('bank_transactions', own, 50, 0));
    const p3 = await history(a, { paging: { limit: 50, page: 3 } });
    expect(p3).toMatchObject({ total: all, totalCapped: false });
    expect(p3.txs.map((x) => x._id)).toEqual(await idsInOrder('bank_transactions', own, 50, 100));
    // The last rows: the mint and the first transfer, oldest last.
    const lastPage = Math.ceil(all / 50);
    const last = await history(a, { paging: { limit: 50, page: lastPage } });
    expect(last).toMatchObject({ total: all, totalCapped: false });
    expect(last.txs.map((x) => x._id)).toEqual(await idsInOrder('bank_transactions', own, 50, (lastPage - 1) * 50));
    expect(last.txs.at(-1)).toMatchObject({ recipient: { nickname: a.nickname }, category: 10 });
    for (const tx of [...p1.txs, ...p3.txs, ...last.txs]) {
      expect([tx.sender?.nickname, tx.recipient?.nickname]).toContain(a.nickname);
    }

    // c's history: their mint and their transfer to b, nothing of a's.
    const theirs = await history(c, { paging: { limit: 50, page: 1 } });
    expect(theirs).toMatchObject({ total: 2, totalCapped: false });
    for (const tx of theirs.txs) expect([tx.sender?.nickname, tx.recipient?.nickname]).toContain(c.nickname);
    // c naming a shows nothing (no row between them); a naming c likewise.
    expect(await history(c, { paging: { limit: 10, page: 1 }, nickname: a.nickname })).toMatchObject({ total: 0 });
    expect(await history(a, { paging: { limit: 10, page: 1 }, nickname: c.nickname })).toMatchObject({ total: 0 });
    // b's history narrowed to c: the one transfer, either direction counted once.
    const bc = await history(b, { paging: { limit: 10, page: 1 }, nickname: c.nickname.toUpperCase() });
    expect(bc).toMatchObject({ total: 1, totalCapped: false });
    expect(bc.txs[0]).toMatchObject({ sender: { nickname: c.nickname }, recipient: { nickname: b.nickname } });
    // c naming b: b has more rows than the probe's bound, so c's own ranges are read; b naming c read c's
    // (betweenBranches). a and b both have thousands: deep pages between them are OFFSET's pages.
    const cb = await history(c, { paging: { limit: 10, page: 1 }, nickname: b.nickname });
    expect(cb).toMatchObject({ total: 1, totalCapped: false });
    expect(cb.txs[0]).toMatchObject({ sender: { nickname: c.nickname }, recipient: { nickname: b.nickname } });
    const between = sql`((sender_id = ${a.id} AND recipient_id = ${b.id}) OR (sender_id = ${b.id} AND recipient_id = ${a.id}))`;
    const ab1 = await history(a, { paging: { limit: 50, page: 1 }, nickname: b.nickname });
    const nBetween = Number(
      (await rowsOf<{ n: string }>(sql`SELECT count(*) AS n FROM bank_transactions WHERE ${between}`))[0]?.n,
    );
    expect(ab1).toMatchObject({ total: nBetween, totalCapped: false });
    expect(ab1.txs.map((x) => x._id)).toEqual(await idsInOrder('bank_transactions', between, 50, 0));
    const ba3 = await history(b, { paging: { limit: 50, page: 3 }, nickname: a.nickname });
    expect(ba3.txs.map((x) => x._id)).toEqual(await idsInOrder('bank_transactions', between, 50, 100));
    // Filters on a's own rows: category, amount range and a date range.
    const big = await history(a, { paging: { limit: 10, page: 1 }, amountAbove: '1', amountBelow: '10' });
    expect(big.txs.map((x) => x.balance.amount).sort()).toEqual(['1.00', '10.00']);
    expect(await history(a, { paging: { limit: 10, page: 1 }, category: 10 })).toMatchObject({ total: 1 });

    // The admin: a nickname matches any party, each row once; the admin's own mints by executor.
    const adminList = async (body: Record<string, unknown>) => {
      const res = await call(t.app, t.admin.token, 'POST', '/api/bank/alltransactions', body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<TransactionsResponse>();
    };
    const byC = await adminList({ paging: { limit: 10, page: 1 }, nickname: c.nickname });
    expect(byC).toMatchObject({ total: 2, totalCapped: false });
    const mints = await adminList({ paging: { limit: 50, page: 1 }, nickname: 'admin', category: 10 });
    expect(mints.txs.map((x) => x.recipient?.nickname)).toEqual(expect.arrayContaining([a.nickname, c.nickname]));
    expect(mints.txs.every((x) => x.executor?.nickname === 'admin')).toBe(true);
    const everything = await adminList({ paging: { limit: 10, page: 1 } });
    // The whole ledger: its exact total from the rollup's counts (other test files write beside this one).
    expect(everything.totalCapped).toBe(false);
    expect(everything.total).toBeGreaterThan(COUNT_CAP);
    expect(await adminList({ paging: { limit: 10, page: 1 }, nickname: 'nobodyatall' })).toMatchObject({ total: 0 });

    await expectLedgerBalanced(t.app, t.admin);
  });
});

describe('the whole ledger past the first pages (the rollup places the page)', () => {
  it('answers every deep page of Tnx Logs as OFFSET over the whole ledger would, the tail included', async () => {
    const db = t.built.database.db;
    const a = await registerMember(t.app, 'deepa');
    const b = await registerMember(t.app, 'deepb');
    await mint(t.app, t.admin, a.nickname, 2, '100');
    // Balanced pairs a -> b and b -> a, one every 17 minutes back over five weeks (rows in many hours and
    // days), a few at one instant (ties by id); then the rollup is rebuilt, so they lie below its watermark.
    await db.execute(sql`
      INSERT INTO bank_transactions (id, category, currency_id, amount, executor_id, sender_id, recipient_id, note,
                                     created_at)
      SELECT 'c' || lpad(to_hex(i), 23, '0'), 3, 2, 0.25,
             CASE WHEN i % 2 = 0 THEN ${a.id} ELSE ${b.id} END,
             CASE WHEN i % 2 = 0 THEN ${a.id} ELSE ${b.id} END,
             CASE WHEN i % 2 = 0 THEN ${b.id} ELSE ${a.id} END, 'deep',
             now() - interval '1 minute' - (i / 2) * interval '17 minutes'
      FROM generate_series(1, 6000) i`);
    // And a busy last 80 minutes: 30 rows a minute, where the rollup places a page by its minutes.
    await db.execute(sql`
      INSERT INTO bank_transactions (id, category, currency_id, amount, executor_id, sender_id, recipient_id, note,
                                     created_at)
      SELECT 'b' || lpad(to_hex(i), 23, '0'), 3, 2, 0.5,
             CASE WHEN i % 2 = 0 THEN ${a.id} ELSE ${b.id} END,
             CASE WHEN i % 2 = 0 THEN ${a.id} ELSE ${b.id} END,
             CASE WHEN i % 2 = 0 THEN ${b.id} ELSE ${a.id} END, 'burst',
             now() - interval '20 seconds' - i * interval '2 seconds'
      FROM generate_series(1, 2400) i`);
    await rebuildLedgerRollup(db);
    const minutes = await rowsOf<{ n: string }>(
      sql`SELECT count(*) AS n FROM ledger_rollup WHERE grain = 'minute' AND bucket > now() - interval '2 hours'`,
    );
    expect(Number(minutes[0]?.n)).toBeGreaterThanOrEqual(80);
    // Rows after the watermark (the tail the rollup has not counted yet).
    for (let i = 0; i < 3; i++) {
      const res = await call(t.app, a.token, 'POST', '/api/bank/p2pTransfer', {
        recipientNickName: b.nickname,
        currencyId: 2,
        amount: '1',
      });
      expect(res.statusCode, res.body).toBe(200);
    }

    const list = async (paging: { limit: number; page: number }) => {
      const res = await call(t.app, t.admin.token, 'POST', '/api/bank/alltransactions', { paging });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<TransactionsResponse>();
    };
    const check = async (label: string) => {
      const all = Number((await rowsOf<{ n: string }>(sql`SELECT count(*) AS n FROM bank_transactions`))[0]?.n);
      expect(all).toBeGreaterThan(8_400);
      const pages = [
        { limit: 50, page: 21 },
        { limit: 41, page: 40 },
        { limit: 50, page: 48 },
        { limit: 50, page: 49 },
        { limit: 7, page: 300 },
        { limit: 50, page: 100 },
        { limit: 33, page: 150 },
        { limit: 49, page: Math.ceil(all / 49) },
        { limit: 49, page: Math.ceil(all / 49) + 1 },
      ];
      for (const paging of pages) {
        const body = await list(paging);
        const offset = (paging.page - 1) * paging.limit;
        expect(
          body.txs.map((x) => x._id),
          `${label} ${JSON.stringify(paging)}`,
        ).toEqual(await idsInOrder('bank_transactions', sql`true`, paging.limit, offset));
        // The whole ledger's total is exact (the rollup's counts plus the tail), the same on every page.
        expect(body.total).toBe(all);
        expect(body.totalCapped).toBe(false);
      }
    };
    // A currency, a category or both (no party, dates or amounts): the total is the rollup's counts plus
    // the tail's rows, equal to counting them.
    const totals = async (label: string) => {
      const filters = [{ currencyId: 2 }, { category: 3 }, { currencyId: 2, category: 3 }, { currencyId: 1 }, {}];
      for (const filter of filters) {
        const res = await call(t.app, t.admin.token, 'POST', '/api/bank/alltransactions', {
          ...filter,
          paging: { limit: 50, page: 3 },
        });
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json<TransactionsResponse>();
        const where = sql.join(
          [
            sql`true`,
            ...('currencyId' in filter ? [sql`currency_id = ${filter.currencyId}`] : []),
            ...('category' in filter ? [sql`category = ${filter.category}`] : []),
          ],
          sql` AND `,
        );
        const n = Number(
          (await rowsOf<{ n: string }>(sql`SELECT count(*) AS n FROM bank_transactions WHERE ${where}`))[0]?.n,
        );
        expect({ total: body.total, capped: body.totalCapped }, `${label} ${JSON.stringify(filter)}`).toEqual({
          total: n,
          capped: false,
        });
        expect(body.txs.map((x) => x._id)).toEqual(await idsInOrder('bank_transactions', where, 50, 100));
      }
    };
    await check('with a tail');
    await totals('with a tail');
    // The rollup counts the tail; the pages and totals stay the same.
    await tickLedgerRollup(db, { wait: true });
    await check('after a tick');
    await totals('after a tick');
    // New rows in the tail again, of both currencies.
    await mint(t.app, t.admin, b.nickname, 1, '5');
    await call(t.app, b.token, 'POST', '/api/bank/p2pTransfer', {
      recipientNickName: a.nickname,
      currencyId: 2,
      amount: '2',
    });
    await totals('a new tail');
    await expectLedgerBalanced(t.app, t.admin);
  });
});

describe('the whole admin lists of forge processes and checkouts', () => {
  it('page in order from the first page on, with the total counted', async () => {
    const currencies = await forgeCurrencies(t);
    const { createRecipe } = forgeCalls(t, () => currencies);
    const recipe = await createRecipe();
    const pkg = await publishedPackage(t);
    const m = await registerMember(t.app, 'whole');
    // 23 processes and 23 checkouts, two of each at one instant (ties by id).
    await t.built.database.db.execute(sql`
      INSERT INTO forge_processes (id, user_id, recipe_id, recipe_name, input_currency_id, input_amount,
                                   output_currency_id, output_amount, quantity, state, created_at, finish_date)
      SELECT 'f' || lpad(to_hex(i), 23, '0'), ${m.id}, ${recipe._id}, 'Bulk', ${currencies.ore.currencyId}, 1,
             ${currencies.ingot.currencyId}, 1, 1, 1, now() - make_interval(mins => i / 2), now() + interval '1 hour'
      FROM generate_series(1, 23) i`);
    await t.built.database.db.execute(sql`
      INSERT INTO checkout_transactions (id, user_id, package_id, package_name, provider_id, cost, amount, created_at)
      SELECT 'c' || lpad(to_hex(i), 23, '0'), ${m.id}, ${pkg._id}, 'Bulk', 1, 1, 1, now() - make_interval(mins => i / 2)
      FROM generate_series(1, 23) i`);
    const post = async <T>(url: string, page: number) => {
      const res = await call(t.app, t.admin.token, 'POST', url, { paging: { limit: 10, page } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<T>();
    };
    for (const [table, url] of [
      ['forge_processes', '/api/forge/getForgeProcessesAll'],
      ['checkout_transactions', '/api/checkout/getAllTransactions'],
    ] as const) {
      const all = Number((await rowsOf<{ n: string }>(sql`SELECT count(*) AS n FROM ${sql.raw(table)}`))[0]?.n);
      expect(all).toBeGreaterThanOrEqual(23);
      for (const page of [1, 2, 3, Math.ceil(all / 10)]) {
        const body = await post<{ total: number; totalCapped: boolean } & Record<string, unknown>>(url, page);
        const rows = (body.processes ?? body.transactions) as Array<{ _id: string }>;
        expect(body).toMatchObject({ total: all, totalCapped: false });
        expect(rows.map((r) => r._id)).toEqual(await idsInOrder(table, sql`true`, 10, (page - 1) * 10));
      }
    }
    // Checkouts of one state or one package (each read with its index's generic plan): every page as
    // OFFSET over the matching rows, ties included.
    await t.built.database.db.execute(sql`
      UPDATE checkout_transactions SET state = ${CHECKOUT_STATE.Cancelled}
      WHERE id LIKE 'c%' AND right(id, 1) IN ('0', '3', '6', '9', 'c', 'f')`);
    for (const [filters, where] of [
      [{ state: CHECKOUT_STATE.Cancelled }, sql`state = ${CHECKOUT_STATE.Cancelled}`],
      [{ state: CHECKOUT_STATE.Created }, sql`state = ${CHECKOUT_STATE.Created}`],
      [{ package: pkg._id }, sql`package_id = ${pkg._id}`],
    ] as const) {
      const all = Number(
        (await rowsOf<{ n: string }>(sql`SELECT count(*) AS n FROM checkout_transactions WHERE ${where}`))[0]?.n,
      );
      expect(all).toBeGreaterThanOrEqual(7);
      for (const page of [1, 2, Math.ceil(all / 5)]) {
        const res = await call(t.app, t.admin.token, 'POST', '/api/checkout/getAllTransactions', {
          paging: { limit: 5, page },
          filters,
        });
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json<{ transactions: Array<{ _id: string }>; total: number; totalCapped: boolean }>();
        expect(body).toMatchObject({ total: all, totalCapped: false });
        expect(
          body.transactions.map((r) => r._id),
          JSON.stringify({ filters, page }),
        ).toEqual(await idsInOrder('checkout_transactions', where, 5, (page - 1) * 5));
      }
    }
  });
});

describe('the other lists answer totalCapped', () => {
  it('forge processes, checkouts, settlements and items', async () => {
    const m = await registerMember(t.app, 'other');
    const post = async <T>(token: string, url: string, body: unknown) => {
      const res = await call(t.app, token, 'POST', url, body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<T>();
    };
    const paging = { limit: 10, page: 1 };
    expect(await post<ForgeProcessesResponse>(m.token, '/api/forge/getForgeProcesses', { paging })).toMatchObject({
      total: 0,
      totalCapped: false,
    });
    expect(
      await post<ForgeProcessesResponse>(t.admin.token, '/api/forge/getForgeProcessesAll', {
        paging,
        filters: { nickname: 'nobodyatall' },
      }),
    ).toMatchObject({ total: 0, totalCapped: false });
    expect(await post(m.token, '/api/checkout/getTransactions', { paging })).toMatchObject({ totalCapped: false });
    expect(await post(t.admin.token, '/api/checkout/getAllTransactions', { paging })).toMatchObject({
      totalCapped: false,
    });
    expect(await post<GetSettlementsResponse>(t.admin.token, '/api/bank/getSettlements', { paging })).toMatchObject({
      totalCapped: false,
    });
    expect(await post(m.token, '/api/inventory/getUserItems', { paging })).toMatchObject({
      total: 0,
      totalCapped: false,
    });
  });
});
