/**
 * The admin user list and user stats at size (issue 19 §2): getUsers' filters on their indexes and equal
 * to SPEC's definition, the capped total past COUNT_CAP, and the kept user stats equal to a full recount
 * (the SQL getUserStats ran before issue 19) after every kind of change, and to a rebuild from scratch.
 * A database of its own: 12,000 bulk members on top of what the app seeds.
 */
import { COUNT_CAP, type GetUserStatsResponse, type GetUsersRequest, type GetUsersResponse } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Db } from '../src/db/client.ts';
import { ensureUserStats, rebuildUserStats, userListSql } from '../src/modules/users/admin.queries.ts';
import {
  call,
  eventually,
  expectLedgerBalanced,
  type Member,
  makeAppOnOwnDatabase,
  makePgliteApp,
  mint,
  PASSWORD,
  registerMember,
  useTestApp,
} from './helpers.ts';
import { TEST_ADMIN, TEST_DB_NAME, testConfig, testDatabaseUrl } from './test-db.ts';

const BULK = 12_000;
const SN = 2; // untaxed (apps/server/src/seed.ts)

/**
 * Members bulk1 … bulkN in one INSERT … SELECT: created every 37 minutes from 2025-01-01 (three at each
 * instant, so the id breaks ties), with flags in fixed proportions.
 */
async function bulkMembers(db: Db, n: number): Promise<void> {
  await db.execute(sql`
    INSERT INTO users (id, nickname, email, role, primary_wallet, is_active, is_wallet_only, is_email_verified,
                       is_anonymous, created_at)
    SELECT 'e' || lpad(to_hex(g), 23, '0'), 'bulk' || g,
           CASE WHEN g % 20 = 0 THEN NULL ELSE 'bulk' || g || '@bulk.example' END,
           CASE WHEN g % 500 = 0 THEN 'admin' WHEN g % 97 = 0 THEN 'creator' ELSE 'user' END,
           CASE WHEN g % 20 = 0 OR g % 7 = 0 THEN '0x' || lpad(to_hex(g), 40, '0') END,
           g % 50 <> 0, g % 20 = 0, g % 5 < 2, g % 10 = 0,
           timestamptz '2025-01-01T00:00:00Z' + (g / 3) * interval '37 minutes'
    FROM generate_series(1, ${n}) g`);
  await db.execute(sql`VACUUM ANALYZE users`);
}

/** SPEC §3 user stats as getUserStats counted them before issue 19: a scan of users (the oracle). */
async function recount(db: Db, start?: string, end?: string) {
  const conds: SQL[] = [sql`true`];
  if (start) conds.push(sql`u.created_at >= ${new Date(start).toISOString()}::timestamptz`);
  if (end) {
    const e = /^\d{4}-\d{2}-\d{2}$/.test(end) ? `${end}T23:59:59.999Z` : new Date(end).toISOString();
    conds.push(sql`u.created_at <= ${e}::timestamptz`);
  }
  const res = await db.execute<Record<string, string>>(sql`
    SELECT count(*) AS "total",
           count(*) FILTER (WHERE u.is_email_verified) AS "verifiedEmailAccounts",
           count(*) FILTER (WHERE u.primary_wallet IS NOT NULL) AS "walletUsers",
           count(*) FILTER (WHERE u.is_anonymous) AS "anonymousUsers",
           count(*) FILTER (WHERE NOT u.is_active) AS "disabledAccounts",
           count(*) FILTER (WHERE u.role = 'admin') AS "adminUsers",
           count(*) FILTER (WHERE EXISTS (SELECT 1 FROM balances b WHERE b.user_id = u.id AND b.amount > 0))
             AS "haveCurrency"
    FROM users u WHERE ${sql.join(conds, sql` AND `)}`);
  return Object.fromEntries(Object.entries(res.rows[0] ?? {}).map(([k, v]) => [k, Number(v)]));
}

/** The per-day (or per-hour) recount, in the kept table's shape (buckets with no member left out). */
async function recountByDay(db: Db, unit: 'day' | 'hour' = 'day') {
  const bucket =
    unit === 'day'
      ? sql`(u.created_at AT TIME ZONE 'UTC')::date::text`
      : sql`to_char(u.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24')`;
  const res = await db.execute(sql`
    SELECT ${bucket} AS day, count(*)::int AS total,
           count(*) FILTER (WHERE u.is_email_verified)::int AS verified,
           count(*) FILTER (WHERE u.primary_wallet IS NOT NULL)::int AS wallet,
           count(*) FILTER (WHERE u.is_anonymous)::int AS anonymous,
           count(*) FILTER (WHERE NOT u.is_active)::int AS disabled,
           count(*) FILTER (WHERE u.role = 'admin')::int AS admin,
           count(*) FILTER (WHERE EXISTS (SELECT 1 FROM balances b WHERE b.user_id = u.id AND b.amount > 0))::int
             AS have_currency
    FROM users u GROUP BY 1 ORDER BY 1`);
  return res.rows;
}

/** The kept per-day (or per-hour) counts, slots summed, buckets whose counts are all zero left out. */
async function keptByDay(db: Db, unit: 'day' | 'hour' = 'day') {
  const [bucket, table] =
    unit === 'day'
      ? [sql`day::text`, sql`user_stats_daily`]
      : [sql`to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24')`, sql`user_stats_hourly`];
  const res = await db.execute(sql`
    SELECT ${bucket} AS day, sum(total)::int AS total, sum(verified)::int AS verified, sum(wallet)::int AS wallet,
           sum(anonymous)::int AS anonymous, sum(disabled)::int AS disabled, sum(admin)::int AS admin,
           sum(have_currency)::int AS have_currency
    FROM ${table} GROUP BY 1
    HAVING sum(total) <> 0 OR sum(have_currency) <> 0 OR sum(verified) <> 0 ORDER BY 1`);
  return res.rows;
}

/** Both kept tables equal their recounts. */
async function expectKeptEqualRecount(db: Db) {
  expect(await keptByDay(db)).toEqual(await recountByDay(db));
  expect(await keptByDay(db, 'hour')).toEqual(await recountByDay(db, 'hour'));
}

describe('getUsers and getUserStats at size (PostgreSQL, 12,000 bulk members)', () => {
  const t = useTestApp({}, { build: () => makeAppOnOwnDatabase('uadm') });
  const db = () => t.built.database.db;

  async function list(body: Omit<GetUsersRequest, 'paging'> & { paging?: GetUsersRequest['paging'] }) {
    const res = await call(t.app, t.admin.token, 'POST', '/api/user/getUsers', {
      paging: { limit: 50, page: 1 },
      ...body,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<GetUsersResponse>();
  }

  async function stats(range: { startDate?: string; endDate?: string } = {}) {
    const res = await call(t.app, t.admin.token, 'POST', '/api/user/getUserStats', range);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<GetUserStatsResponse>().stats;
  }

  it('bulk-loads the members', async () => {
    await bulkMembers(db(), BULK);
    const n = await db().execute<{ n: string }>(sql`SELECT count(*) AS n FROM users`);
    expect(Number(n.rows[0]?.n)).toBeGreaterThan(COUNT_CAP);
  });

  // Each filter: the page and total equal SPEC's definition (strpos for a part, in any case), and the
  // plan reads an index, never the whole table.
  // A filter most members match is counted on the table at this size (10,001 rows of 12,000 cost less
  // read in order than through an index); its count is bounded by COUNT_CAP all the same.
  const filters: Array<{
    name: string;
    f: Omit<GetUsersRequest, 'paging'>;
    index: string;
    where: SQL;
    most?: boolean;
  }> = [
    {
      name: 'nickname',
      f: { nickname: 'BULK123' },
      index: 'users_nickname_trgm',
      where: sql`strpos(lower(nickname), 'bulk123') > 0`,
    },
    {
      name: 'e-mail',
      f: { email: 'K777@bulk' },
      index: 'users_email_trgm',
      where: sql`strpos(email, 'k777@bulk') > 0`,
    },
    { name: 'role admin', f: { role: 'admin' }, index: 'users_staff_created', where: sql`role = 'admin'` },
    { name: 'role creator', f: { role: 'creator' }, index: 'users_staff_created', where: sql`role = 'creator'` },
    { name: 'role user', f: { role: 'user' }, index: 'users_created_at', where: sql`role = 'user'`, most: true },
    { name: 'inactive', f: { isActive: false }, index: 'users_inactive_created', where: sql`NOT is_active` },
    { name: 'active', f: { isActive: true }, index: 'users_created_at', where: sql`is_active`, most: true },
    { name: 'wallet-only', f: { isWalletOnly: true }, index: 'users_wallet_only_created', where: sql`is_wallet_only` },
    {
      name: 'not wallet-only',
      f: { isWalletOnly: false },
      index: 'users_created_at',
      where: sql`NOT is_wallet_only`,
      most: true,
    },
    {
      name: 'verified',
      f: { isEmailVerified: true },
      index: 'users_created_at',
      where: sql`is_email_verified`,
      most: true,
    },
    {
      name: 'unverified',
      f: { isEmailVerified: false },
      index: 'users_created_at',
      where: sql`NOT is_email_verified`,
      most: true,
    },
    { name: 'private', f: { isAnonymous: true }, index: 'users_anonymous_created', where: sql`is_anonymous` },
    { name: 'public', f: { isAnonymous: false }, index: 'users_created_at', where: sql`NOT is_anonymous`, most: true },
    {
      name: 'created range',
      f: { createdAfter: '2025-03-01', createdBefore: '2025-03-02' },
      index: 'users_created_at',
      where: sql`created_at >= '2025-03-01T00:00:00Z' AND created_at <= '2025-03-02T23:59:59.999Z'`,
    },
    {
      name: 'inactive private wallet-only',
      f: { isActive: false, isAnonymous: true, isWalletOnly: true },
      index: 'users_',
      where: sql`NOT is_active AND is_anonymous AND is_wallet_only`,
    },
  ];
  for (const { name, f, index, where, most } of filters) {
    it(`filters by ${name} on ${index}, as SPEC defines it`, async () => {
      const body = await list(f);
      const expected = await db().execute<{ id: string }>(
        sql`SELECT id FROM users WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT 50`,
      );
      const all = await db().execute<{ n: string }>(sql`SELECT count(*) AS n FROM users WHERE ${where}`);
      const n = Number(all.rows[0]?.n);
      expect(n).toBeGreaterThan(0);
      expect(body.users.map((u) => u._id)).toEqual(expected.rows.map((r) => r.id));
      expect(body.total).toBe(Math.min(n, COUNT_CAP));
      expect(body.totalCapped).toBe(n > COUNT_CAP);

      const q = userListSql({ paging: { limit: 50, page: 1 }, ...f } as Parameters<typeof userListSql>[0]);
      const count = sql`SELECT 1 FROM ${q.from} LIMIT ${q.offset + COUNT_CAP + 1}`;
      for (const query of most ? [q.pageIds] : [q.pageIds, count]) {
        const plan = (await db().execute<{ 'QUERY PLAN': string }>(sql`EXPLAIN ${query}`)).rows
          .map((r) => r['QUERY PLAN'])
          .join('\n');
        expect(plan).not.toContain('Seq Scan');
        expect(plan).toContain(index);
      }
    });
  }

  it('caps the total past COUNT_CAP, moves the cap with the page, and Next leads on', async () => {
    const first = await list({});
    expect(first.total).toBe(COUNT_CAP);
    expect(first.totalCapped).toBe(true);
    const all = Number((await db().execute<{ n: string }>(sql`SELECT count(*) AS n FROM users`)).rows[0]?.n);

    const second = await list({ paging: { limit: 50, page: 2 } });
    expect(second.users).toHaveLength(50);
    expect(second.users[0]?._id).not.toBe(first.users[0]?._id);
    const expected = await db().execute<{ id: string }>(
      sql`SELECT id FROM users ORDER BY created_at DESC, id DESC LIMIT 50 OFFSET 50`,
    );
    expect(second.users.map((u) => u._id)).toEqual(expected.rows.map((r) => r.id));

    // Page 150 starts at row 7,451: the count reaches the end of the list, so the total is exact.
    const deep = await list({ paging: { limit: 50, page: 150 } });
    expect(deep.total).toBe(all);
    expect(deep.totalCapped).toBe(false);
    const last = await list({ paging: { limit: 50, page: Math.ceil(all / 50) } });
    expect(last.users).toHaveLength(all % 50 || 50);
    const past = await list({ paging: { limit: 50, page: Math.ceil(all / 50) + 1 } });
    expect(past.users).toHaveLength(0);
    expect(past.total).toBe(all);
  });

  it('answers every deep page of every account as OFFSET over the whole list would (kept per-day counts)', async () => {
    const all = Number((await db().execute<{ n: string }>(sql`SELECT count(*) AS n FROM users`)).rows[0]?.n);
    // Offsets from DAY_STEP_MIN_OFFSET on, pages that start and end inside a day and across days, the
    // last page and one past it; odd limits so a page rarely starts on a day's first row.
    const pages: Array<{ page: number; limit: number }> = [
      { page: 21, limit: 50 },
      { page: 101, limit: 50 },
      { page: 77, limit: 13 },
      { page: 400, limit: 29 },
      { page: 239, limit: 49 },
      { page: Math.ceil(all / 37), limit: 37 },
      { page: Math.ceil(all / 37) + 1, limit: 37 },
    ];
    for (const paging of pages) {
      const body = await list({ paging });
      const expected = await db().execute<{ id: string }>(
        sql`SELECT id FROM users ORDER BY created_at DESC, id DESC LIMIT ${paging.limit} OFFSET ${(paging.page - 1) * paging.limit}`,
      );
      expect(
        body.users.map((u) => u._id),
        JSON.stringify(paging),
      ).toEqual(expected.rows.map((r) => r.id));
      // The total as a count capped at COUNT_CAP rows past the page's start gives it.
      const bound = (paging.page - 1) * paging.limit + COUNT_CAP;
      expect(body.total).toBe(Math.min(all, bound));
      expect(body.totalCapped).toBe(all > bound);
    }
    // A member registered now moves every deep page by one row, at once.
    const before = await list({ paging: { page: 101, limit: 50 } });
    await registerMember(t.app, 'deeppagenew');
    const after = await list({ paging: { page: 101, limit: 50 } });
    expect(after.total).toBe(before.total + 1);
    expect(after.users.slice(1).map((u) => u._id)).toEqual(before.users.slice(0, -1).map((u) => u._id));
  });

  it('finds a search of a common part (most nicknames share its trigrams) exactly, on every page', async () => {
    // `bulk1…`: `bul` and `ulk` are in every bulk nickname, so the index is asked for the rare rest; that
    // choice reads the nicknames ANALYZE sampled for the index, which this database has.
    const sampled = await db().execute<{ n: number }>(
      sql`SELECT cardinality(histogram_bounds::text::text[]) AS n FROM pg_stats WHERE tablename = 'users_nickname_trgm'`,
    );
    expect(sampled.rows[0]?.n).toBeGreaterThanOrEqual(50);
    for (const nickname of ['BULK12', 'bulk1199', 'ulk11']) {
      const where = sql`strpos(lower(nickname), ${nickname.toLowerCase()}) > 0`;
      const n = Number(
        (await db().execute<{ n: string }>(sql`SELECT count(*) AS n FROM users WHERE ${where}`)).rows[0]?.n,
      );
      expect(n).toBeGreaterThan(10);
      for (const paging of [
        { page: 1, limit: 10 },
        { page: 2, limit: 10 },
        { page: Math.ceil(n / 10), limit: 10 },
      ]) {
        const body = await list({ nickname, paging });
        const expected = await db().execute<{ id: string }>(
          sql`SELECT id FROM users WHERE ${where} ORDER BY created_at DESC, id DESC
              LIMIT ${paging.limit} OFFSET ${(paging.page - 1) * paging.limit}`,
        );
        expect(
          body.users.map((u) => u._id),
          `${nickname} ${paging.page}`,
        ).toEqual(expected.rows.map((r) => r.id));
        expect(body.total).toBe(n);
        expect(body.totalCapped).toBe(false);
      }
    }
  });

  it('matches % and _ in a search as themselves', async () => {
    expect((await list({ nickname: 'bulk_1' })).total).toBe(0);
    expect((await list({ email: '%' })).total).toBe(0);
  });

  it('keeps the stats equal to a full recount through every kind of change, and a rebuild equals them', async () => {
    const a = await registerMember(t.app, 'kept');
    const b = await registerMember(t.app, 'kept');
    const c = await registerMember(t.app, 'kept');
    const transfer = (from: Member, to: Member, amount: string) =>
      call(t.app, from.token, 'POST', '/api/bank/p2pTransfer', {
        recipientNickName: to.nickname,
        currencyId: SN,
        amount,
        note: '',
      });
    const ok = async (p: Promise<{ statusCode: number; body: string }>) => {
      const res = await p;
      expect(res.statusCode, res.body).toBe(200);
    };
    // Balances: a has some, then none (all to b), then some again (b pays back); c gets two currencies.
    await mint(t.app, t.admin, a.nickname, SN, '5');
    await ok(transfer(a, b, '5'));
    expect(await recount(db())).toMatchObject(await stats());
    await ok(transfer(b, a, '2'));
    await ok(transfer(b, a, '3'));
    await mint(t.app, t.admin, c.nickname, SN, '1');
    await mint(t.app, t.admin, c.nickname, 1, '1');
    // The Private flag (on, and on then off), deactivation, role changes (these end the member's session).
    await ok(call(t.app, a.token, 'POST', '/api/user/updateProfile', { isAnonymous: true }));
    await ok(call(t.app, c.token, 'POST', '/api/user/updateProfile', { isAnonymous: true }));
    await ok(call(t.app, c.token, 'POST', '/api/user/updateProfile', { isAnonymous: false }));
    await ok(call(t.app, t.admin.token, 'POST', '/api/user/administrateUser', { nickname: b.nickname, active: false }));
    await ok(call(t.app, t.admin.token, 'POST', '/api/user/administrateUser', { nickname: c.nickname, role: 'admin' }));
    await ok(call(t.app, t.admin.token, 'POST', '/api/user/administrateUser', { nickname: 'bulk500', role: 'user' }));
    // E-mail verification and a wallet, as their flows write them (one UPDATE of the row).
    await db().execute(sql`UPDATE users SET is_email_verified = true WHERE id = ${a.id}`);
    await db().execute(sql`UPDATE users SET primary_wallet = '0x00000000000000000000000000000000000000aa'
                            WHERE id = ${c.id}`);
    // A member moved to another day, and one removed.
    await db().execute(sql`UPDATE users SET created_at = '2025-02-10T12:00:00Z' WHERE nickname = 'bulk30'`);
    await db().execute(sql`DELETE FROM users WHERE nickname = 'bulk31'`);

    await expectKeptEqualRecount(db());
    const ranges: Array<{ startDate?: string; endDate?: string }> = [
      {},
      { startDate: '2025-02-01', endDate: '2025-03-15' },
      { startDate: '2025-02-01T05:30:00Z', endDate: '2025-03-15T12:00:00Z' },
      { startDate: '2025-02-10T06:00:00.000Z', endDate: '2025-02-10T18:00:00.000Z' },
      { startDate: '2025-02-09T20:00:00Z', endDate: '2025-02-10T23:59:59.999Z' },
      { startDate: '2025-03-01' },
      { endDate: '2025-03-01T10:00:00Z' },
      { startDate: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10) },
      { startDate: '2025-05-01', endDate: '2025-04-01' },
      // Edges inside an hour, on an hour, within one hour, across midnight with no whole day, whole hours only.
      { startDate: '2025-02-03T07:41:00Z', endDate: '2025-02-20T16:05:30Z' },
      { startDate: '2025-02-03T07:00:00Z', endDate: '2025-02-20T15:59:59.999Z' },
      { startDate: '2025-02-10T12:10:00Z', endDate: '2025-02-10T12:50:00Z' },
      { startDate: '2025-02-09T22:30:00Z', endDate: '2025-02-10T01:30:00Z' },
      { startDate: '2025-02-09T22:00:00Z', endDate: '2025-02-10T01:59:59.999Z' },
      { startDate: '2025-02-10T12:00:00Z', endDate: '2025-02-10T12:00:00Z' },
      { startDate: '2025-02-28T23:59:00Z' },
      { endDate: '2025-01-05T00:20:00Z' },
    ];
    for (const r of ranges)
      expect(await stats(r), JSON.stringify(r)).toEqual(await recount(db(), r.startDate, r.endDate));

    // A rebuild from scratch gives the same figures; with the state gone, the start-up check rebuilds it.
    const kept = await keptByDay(db());
    const keptHours = await keptByDay(db(), 'hour');
    await rebuildUserStats(db());
    expect(await keptByDay(db())).toEqual(kept);
    expect(await keptByDay(db(), 'hour')).toEqual(keptHours);
    expect(await ensureUserStats(db())).toBe(false);
    await db().execute(sql`TRUNCATE user_stats_daily, user_stats_hourly, user_holdings`);
    expect(await ensureUserStats(db())).toBe(true);
    expect(await keptByDay(db())).toEqual(kept);
    expect(await keptByDay(db(), 'hour')).toEqual(keptHours);
    expect(await stats()).toEqual(await recount(db()));
    // So does a bulk load that bypassed the triggers (as the scale seed's does).
    await db().transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL session_replication_role = replica`);
      await tx.execute(sql`
        INSERT INTO users (id, nickname, created_at)
        SELECT 'f' || lpad(to_hex(g), 23, '0'), 'bypass' || g, timestamptz '2025-04-01' + g * interval '1 hour'
        FROM generate_series(1, 100) g`);
    });
    expect(await keptByDay(db())).not.toEqual(await recountByDay(db()));
    expect(await ensureUserStats(db())).toBe(true);
    await expectKeptEqualRecount(db());

    // A server that starts on a database whose kept stats are gone answers at once and rebuilds them beside
    // its first requests (the check is not on the way to ready).
    await db().execute(sql`TRUNCATE user_stats_daily, user_stats_hourly, user_holdings`);
    const second = await buildApp(testConfig({ DATABASE_URL: testDatabaseUrl(`${TEST_DB_NAME}_uadm`) }));
    try {
      const admin = await second.app.inject({
        method: 'POST',
        url: '/api/user/login',
        payload: { nickOrEmail: t.admin.nickname, password: TEST_ADMIN.password },
      });
      expect(admin.statusCode, admin.body).toBe(200);
      const token = admin.json<{ token: string }>().token;
      const expected = await recount(db());
      const rebuilt = await eventually(
        async () =>
          (await call(second.app, token, 'POST', '/api/user/getUserStats', {})).json<GetUserStatsResponse>().stats,
        (s) => JSON.stringify(s) === JSON.stringify(expected),
      );
      expect(rebuilt).toEqual(expected);
      await expectKeptEqualRecount(db());
    } finally {
      await second.app.close();
    }

    // After the rebuild the triggers keep going: c (signed in again: the role change ended the session)
    // gives all of one currency away and still holds the other; then a gives all away and holds none.
    const relogin = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { nickOrEmail: c.nickname, password: PASSWORD },
    });
    expect(relogin.statusCode, relogin.body).toBe(200);
    const c2 = { ...c, token: relogin.json<{ token: string }>().token };
    await ok(transfer(c2, a, '1'));
    await expectKeptEqualRecount(db());
    await ok(transfer(a, c2, '6'));
    await expectKeptEqualRecount(db());
    await expectLedgerBalanced(t.app, t.admin);
  });
});

describe('on the embedded PGlite', () => {
  const t = useTestApp({}, { build: makePgliteApp });

  it('searches by part of a nickname (pg_trgm loaded) and keeps the stats', async () => {
    const m = await registerMember(t.app, 'litetrgm');
    await mint(t.app, t.admin, m.nickname, SN, '1');
    const res = await call(t.app, t.admin.token, 'POST', '/api/user/getUsers', {
      paging: { limit: 5, page: 1 },
      nickname: 'TETRG',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<GetUsersResponse>();
    expect(body.users.map((u) => u.nickname)).toEqual([m.nickname]);
    expect(body.users[0]?.hasCurrency).toBe(true);
    expect(body.totalCapped).toBe(false);
    const stats = await call(t.app, t.admin.token, 'POST', '/api/user/getUserStats', {});
    expect(stats.json<GetUserStatsResponse>().stats).toEqual(await recount(t.built.database.db));
    // A range from inside an hour: the kept hours and the counted part of an hour, as on PostgreSQL.
    const since = new Date(Date.now() - 90 * 60_000).toISOString();
    const ranged = await call(t.app, t.admin.token, 'POST', '/api/user/getUserStats', { startDate: since });
    expect(ranged.json<GetUserStatsResponse>().stats).toEqual(await recount(t.built.database.db, since));
    await expectKeptEqualRecount(t.built.database.db);
  });
});
