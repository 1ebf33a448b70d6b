/**
 * The admin user list at size: getUsers' filters on their indexes and equal to SPEC's
 * definition, the capped total past COUNT_CAP moving with the page, every deep page as OFFSET over the
 * whole list would answer it, and searches of a common part found exactly. A database of its own: 12,000
 * bulk members on top of what the app seeds; new members written into the trigram indexes at once. The user stats at size: reports.user-stats.test.ts.
 */
import { COUNT_CAP, type GetUsersRequest, type GetUsersResponse } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { userListSql } from '../src/modules/users/admin.queries.ts';
import { call, makeAppOnOwnDatabase, registerMember, useTestApp } from './helpers.ts';
import { BULK, bulkMembers } from './users.admin.helpers.ts';

/**
 * The order of a nickname search of `text` as SPEC's list with the ranking: the nicknames that start with
 * it (any case) first, in byte order (so the exact one leads), then the rest newest first.
 */
function rankedOrder(text: string): SQL {
  const starts = sql`lower(nickname) COLLATE "C" LIKE ${`${text.toLowerCase()}%`}`;
  return sql`(${starts}) DESC, CASE WHEN ${starts} THEN lower(nickname) COLLATE "C" END, created_at DESC, id DESC`;
}

describe('getUsers and getUserStats at size (PostgreSQL, 12,000 bulk members)', () => {
  const t = useTestApp({}, { build: () => makeAppOnOwnDatabase('uadm_list') });
  const db = () => t.built.database.db;

  async function list(body: Omit<GetUsersRequest, 'paging'> & { paging?: GetUsersRequest['paging'] }) {
    const res = await call(t.app, t.admin.token, 'POST', '/api/user/getUsers', {
      paging: { limit: 50, page: 1 },
      ...body,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<GetUsersResponse>();
  }

  beforeAll(async () => {
    await bulkMembers(db(), BULK);
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
    order?: SQL;
  }> = [
    {
      name: 'nickname',
      f: { nickname: 'BULK123' },
      index: 'users_nickname_trgm',
      where: sql`strpos(lower(nickname), 'bulk123') > 0`,
      order: rankedOrder('bulk123'),
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
  for (const { name, f, index, where, most, order } of filters) {
    it(`filters by ${name} on ${index}, as SPEC defines it`, async () => {
      const body = await list(f);
      const expected = await db().execute<{ id: string }>(
        sql`SELECT id FROM users WHERE ${where} ORDER BY ${order ?? sql`created_at DESC, id DESC`} LIMIT 50`,
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
          sql`SELECT id FROM users WHERE ${where} ORDER BY ${rankedOrder(nickname)}
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

  it('ranks the exact nickname first (any case), then those that start with it, then the rest', async () => {
    // (Pages across the ranks: the search of a common part above.) The exact one is the oldest and the part-of-a-word ones the newest: newest first put it last.
    await db().execute(sql`
      INSERT INTO users (id, nickname, email, created_at) VALUES
        ('f00000000000000000000001', 'Ranked77', 'ranked77@rank.example', '2020-01-01T00:00:00Z'),
        ('f00000000000000000000002', 'ranked77b', 'ranked77b@rank.example', '2021-01-01T00:00:00Z'),
        ('f00000000000000000000003', 'RANKED77a', 'ranked77a@rank.example', '2022-01-01T00:00:00Z'),
        ('f00000000000000000000004', 'xranked77', 'xranked77@rank.example', '2023-01-01T00:00:00Z'),
        ('f00000000000000000000005', 'yranked77z', 'yranked77z@rank.example', '2024-01-01T00:00:00Z')`);
    const nicks = (body: GetUsersResponse) => body.users.map((u) => u.nickname);
    const all = await list({ nickname: 'rANKED77' });
    expect(nicks(all)).toEqual(['Ranked77', 'RANKED77a', 'ranked77b', 'yranked77z', 'xranked77']);
    expect(all.total).toBe(5);

    // The prefix part is a range of users_nickname_prefix read in its order (no sort of every match).
    const plan = (
      await db().execute<{ 'QUERY PLAN': string }>(
        sql`EXPLAIN SELECT u.id FROM users u WHERE lower(u.nickname) COLLATE "C" LIKE 'bulk1%' AND true
            ORDER BY lower(u.nickname) COLLATE "C" LIMIT 50`,
      )
    ).rows
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    expect(plan).toContain('Index Scan using users_nickname_prefix');
    expect(plan).not.toContain('Sort');
  });

  it('writes a new member into the trigram indexes at once, so no search reads a pending list', async () => {
    const fresh = [await registerMember(t.app, 'gin'), await registerMember(t.app, 'gin')];
    await db().execute(sql`CREATE EXTENSION IF NOT EXISTS pgstattuple`);
    const pending = await db().execute<{ index: string; pages: number; tuples: string }>(sql`
      SELECT i AS index, (pgstatginindex(i::regclass)).pending_pages AS pages,
             (pgstatginindex(i::regclass)).pending_tuples::text AS tuples
      FROM unnest(ARRAY['users_nickname_trgm', 'users_email_trgm']) AS i`);
    expect(pending.rows).toEqual([
      { index: 'users_nickname_trgm', pages: 0, tuples: '0' },
      { index: 'users_email_trgm', pages: 0, tuples: '0' },
    ]);
    for (const m of fresh) {
      expect((await list({ nickname: m.nickname.toUpperCase() })).users.map((u) => u._id)).toEqual([m.id]);
      expect((await list({ email: m.email })).users.map((u) => u._id)).toEqual([m.id]);
    }
  });

  it('matches % and _ in a search as themselves', async () => {
    expect((await list({ nickname: 'bulk_1' })).total).toBe(0);
    expect((await list({ email: '%' })).total).toBe(0);
  });
});
