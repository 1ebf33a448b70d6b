/**
 * The admin's user stats at size: the kept user stats equal to a full recount (the SQL
 * getUserStats ran before its stats were kept) after every kind of change, to a rebuild from scratch and to what a
 * server starting without them rebuilds; the same on the embedded PGlite. A database of its own: 12,000
 * bulk members on top of what the app seeds. The user list at size: users.admin.list.test.ts.
 */
import { COUNT_CAP, type GetUserStatsResponse, type GetUsersResponse } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Db } from '../src/db/client.ts';
import { ensureUserStats, rebuildUserStats } from '../src/modules/reports/user-stats.queries.ts';
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
import { BULK, bulkMembers } from './users.admin.helpers.ts';

const SN = 2; // untaxed (apps/server/src/seed.ts)

/** SPEC §3 user stats as getUserStats counted them before they were kept: a scan of users (the oracle). */
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
      // The longer part of an hour at either end: the hour's kept count less the rest of it (members at
      // 07:12 before the start and at 16:41 after the end, in the same hours, are taken away).
      { startDate: '2025-02-03T07:20:00Z', endDate: '2025-02-20T16:40:00Z' },
      // ... and those created at the range's last instant are kept.
      { startDate: '2025-02-03T07:20:00Z', endDate: '2025-02-20T16:41:00Z' },
      { startDate: '2025-02-09T22:59:59.999Z', endDate: '2025-02-10T01:00:00.001Z' },
      { endDate: new Date().toISOString() },
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
