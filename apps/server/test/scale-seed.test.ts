/**
 * `make scale-seed` on a database of its own at 2,000 members and 40,000 ledger rows: the
 * counts and the mix, every balance equal to its ledger rows, escrow equal to the open orders, the audit
 * clean, member1's heavy history and sign-in with SCALE_PASSWORD, and the refusals.
 */
import type { AuthResponse, ListingsResponse, NotificationsResponse } from '@starlight/shared';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimatedMinutes, loadScaleSettings } from '../scripts/scale-seed.config.ts';
import { runScaleSeed } from '../scripts/scale-seed.ts';
import { type BuiltApp, buildApp } from '../src/app.ts';
import { call, expectLedgerBalanced, loginAdmin } from './helpers.ts';
import { ADMIN_URL, TEST_ADMIN, TEST_DB_NAME, TEST_JWT_SECRET, testConfig, testDatabaseUrl } from './test-db.ts';

const DB = `${TEST_DB_NAME}_scale_seed`;
const PASSWORD = 'Seeded-Passw0rd?';
const MEMBERS = 2000;
const TX = 40_000;

/** The environment of a run: the test admin, quiet, on `databaseUrl` (undefined: PGlite in memory). */
function env(databaseUrl: string | undefined, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: 'memory://' }),
    LOG_LEVEL: 'silent',
    JWT_SECRET: TEST_JWT_SECRET,
    ADMIN_NICKNAME: TEST_ADMIN.nickname,
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    ...extra,
  };
}

/** Drops `name` when it exists: the seed creates the database its DATABASE_URL names. */
async function drop(name: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

let built: BuiltApp;
/** What the run printed. */
const logged: string[] = [];
let db: pg.Client;
/** What the seed left in its derived structures, read before any app started on the database. */
let derived: {
  members: number;
  statsTotal: number;
  ranked: number;
  holders: number;
  rollupRows: number;
  ledgerRows: number;
  signIns: number;
  signInMismatches: number;
};
const one = async <R extends Record<string, unknown>>(text: string, params: unknown[] = []) =>
  (await db.query<R>(text, params)).rows[0] as R;

beforeAll(async () => {
  await drop(DB);
  await runScaleSeed(
    env(testDatabaseUrl(DB), { SCALE_MEMBERS: String(MEMBERS), SCALE_TX: String(TX), SCALE_PASSWORD: PASSWORD }),
    (line) => logged.push(line),
  );
  db = new pg.Client({ connectionString: testDatabaseUrl(DB) });
  await db.connect();
  derived = await one(
    `SELECT (SELECT count(*)::int FROM users) AS members,
            (SELECT coalesce(sum(total), 0)::int FROM user_stats_daily) AS "statsTotal",
            (SELECT count(*)::int FROM leaderboard_entries) AS ranked,
            (SELECT count(*)::int FROM balances b JOIN users u ON u.id = b.user_id
              WHERE b.amount > 0 AND u.is_active AND NOT u.is_system) AS holders,
            (SELECT coalesce(sum(n), 0)::int FROM ledger_rollup WHERE grain = 'day') AS "rollupRows",
            (SELECT count(*)::int FROM bank_transactions) AS "ledgerRows",
            (SELECT count(*)::int FROM access_logs) AS "signIns",
            (SELECT count(*)::int FROM (SELECT user_id, count(*) AS n FROM access_logs GROUP BY user_id) a
               FULL JOIN access_log_counts c USING (user_id) WHERE a.n IS DISTINCT FROM c.n) AS "signInMismatches"`,
  );
  built = await buildApp(testConfig({ DATABASE_URL: testDatabaseUrl(DB) }));
}, 120_000);

afterAll(async () => {
  await db?.end();
  await built?.app.close();
});

describe('make scale-seed at 2,000 members', () => {
  it('makes the members with the mix, and every part in proportion', async () => {
    const m = await one<Record<string, number>>(
      `SELECT count(*)::int AS members,
              count(*) FILTER (WHERE is_wallet_only AND email IS NULL AND password_hash IS NULL AND primary_wallet IS NOT NULL)::int AS wallet_only,
              count(*) FILTER (WHERE is_anonymous)::int AS private,
              count(*) FILTER (WHERE NOT is_active)::int AS inactive,
              count(*) FILTER (WHERE is_email_verified)::int AS verified,
              count(*) FILTER (WHERE email = nickname || '@scale.example')::int AS emails,
              (max(created_at) - min(created_at) > interval '600 days')::int AS spread
         FROM users WHERE nickname ~ '^member[0-9]+$'`,
    );
    expect(m.members).toBe(MEMBERS);
    expect(m.wallet_only).toBe(MEMBERS * 0.05);
    expect(m.emails).toBe(MEMBERS - (m.wallet_only ?? 0));
    expect(m.private).toBeGreaterThan(MEMBERS * 0.07);
    expect(m.private).toBeLessThan(MEMBERS * 0.13);
    expect(m.inactive).toBeGreaterThan(MEMBERS * 0.01);
    expect(m.inactive).toBeLessThan(MEMBERS * 0.03);
    expect(m.verified).toBeGreaterThan(MEMBERS * 0.35);
    expect(m.verified).toBeLessThan(MEMBERS * 0.45);
    expect(m.spread).toBe(1);
    const other = await one<{ n: number }>(`SELECT count(*)::int AS n FROM users WHERE nickname !~ '^member[0-9]+$'`);
    expect(other.n).toBe(2); // the admin and the chip sale

    const c = await one<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM bank_transactions) AS ledger,
              (SELECT count(DISTINCT category)::int FROM bank_transactions
                WHERE category IN (1, 2, 3, 4, 10, 11, 12, 13, 14, 20, 21, 22, 23, 33)) AS categories,
              (SELECT count(*)::int FROM bank_transactions WHERE created_at < now() - interval '600 days') AS old_rows,
              (SELECT count(*)::int FROM exchange_pairs) AS pairs,
              (SELECT count(*)::int FROM exchange_orders) AS orders,
              (SELECT count(*)::int FROM exchange_trades) AS trades,
              (SELECT max(n)::int FROM (SELECT count(*) AS n FROM exchange_orders WHERE state = 1 GROUP BY pair_id) x) AS open_busiest,
              (SELECT count(*)::int FROM forge_recipes) AS recipes,
              (SELECT count(*)::int FROM forge_processes) AS processes,
              (SELECT count(*)::int FROM checkout_transactions) AS checkouts,
              (SELECT count(*)::int FROM checkout_events) AS events,
              (SELECT count(*)::int FROM item_collections) AS collections,
              (SELECT count(*)::int FROM items) AS items,
              (SELECT count(*)::int FROM access_logs) AS access,
              (SELECT count(*)::int FROM admin_logs) AS admin,
              (SELECT count(*)::int FROM settlements) AS settlements,
              (SELECT count(*)::int FROM balances b JOIN users u ON u.id = b.user_id WHERE b.amount > 0 AND NOT u.is_system) AS holdings`,
    );
    expect(c.ledger).toBe(TX);
    expect(c.categories).toBe(14);
    expect(c.old_rows).toBeGreaterThan(0);
    expect(c.pairs).toBe(6);
    // Figures at 1,000,000 members x 0.002: >= 2,000 orders, ~4,000 trades, an open book of 100.
    expect(c.orders).toBeGreaterThanOrEqual(2000);
    expect(c.trades).toBeGreaterThan(3000);
    expect(c.open_busiest).toBeGreaterThanOrEqual(100);
    expect(c.recipes).toBe(50);
    expect(c.processes).toBeGreaterThanOrEqual(500);
    expect(c.checkouts).toBeGreaterThanOrEqual(200);
    expect(c.events).toBeGreaterThan((c.checkouts ?? 0) / 2);
    expect(c.collections).toBe(20);
    expect(c.items).toBe(4000);
    expect(c.access).toBe(10_000);
    expect(c.admin).toBe(200);
    expect(c.settlements).toBe(100);
    // Most members hold something, in every currency.
    expect(c.holdings).toBeGreaterThan(MEMBERS);
    const perCurrency = await db.query<{ currency_id: number; holders: number }>(
      `SELECT currency_id, count(*)::int AS holders FROM balances WHERE amount > 0 GROUP BY 1 ORDER BY 1`,
    );
    expect(perCurrency.rows.map((r) => r.currency_id)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('keeps every balance equal to its ledger rows, none negative, and escrow equal to the open orders', async () => {
    const r = await one<{ mismatches: number; negative: number }>(
      `WITH net AS (
         SELECT v.u AS user_id, t.currency_id, sum(v.d) AS net
           FROM bank_transactions t CROSS JOIN LATERAL (VALUES (t.sender_id, -t.amount), (t.recipient_id, t.amount)) v(u, d)
          WHERE v.u IS NOT NULL GROUP BY 1, 2)
       SELECT count(*) FILTER (WHERE coalesce(b.amount, 0) <> coalesce(n.net, 0))::int AS mismatches,
              (SELECT count(*)::int FROM balances WHERE amount < 0) AS negative
         FROM balances b FULL JOIN net n ON n.user_id = b.user_id AND n.currency_id = b.currency_id`,
    );
    expect(r).toEqual({ mismatches: 0, negative: 0 });
    const escrow = await db.query<{ currency_id: number; ledger: string; open: string }>(
      `WITH e AS (SELECT currency_id, sum(CASE WHEN recipient_id IS NULL THEN amount ELSE -amount END) AS held
                    FROM bank_transactions WHERE escrow GROUP BY 1),
            o AS (SELECT CASE WHEN o.buy_side THEN p.sell_currency ELSE p.buy_currency END AS currency_id,
                         sum(o.escrow_remaining) AS held
                    FROM exchange_orders o JOIN exchange_pairs p ON p.id = o.pair_id WHERE o.state = 1 GROUP BY 1)
       SELECT coalesce(e.currency_id, o.currency_id) AS currency_id, coalesce(e.held, 0)::text AS ledger,
              coalesce(o.held, 0)::text AS open
         FROM e FULL JOIN o ON o.currency_id = e.currency_id`,
    );
    expect(escrow.rows.length).toBeGreaterThan(0);
    for (const row of escrow.rows) expect(row.ledger, `currency ${row.currency_id}`).toBe(row.open);
    // Each order's own escrow rows leave exactly what it still holds.
    const orders = await one<{ bad: number }>(
      `WITH e AS (SELECT reference, sum(CASE WHEN recipient_id IS NULL THEN amount ELSE -amount END) AS held
                    FROM bank_transactions WHERE escrow GROUP BY 1)
       SELECT count(*)::int AS bad FROM exchange_orders o LEFT JOIN e ON e.reference = o.id
        WHERE coalesce(e.held, 0) <> o.escrow_remaining`,
    );
    expect(orders.bad).toBe(0);
    const admin = await loginAdmin(built.app);
    await expectLedgerBalanced(built.app, admin);
  });

  it('leaves the kept user stats, leaderboard, ledger rollup and sign-in counts built from what it wrote', () => {
    expect(derived.statsTotal).toBe(derived.members);
    expect(derived.signIns).toBeGreaterThan(0);
    expect(derived.signInMismatches).toBe(0);
    expect(derived.holders).toBeGreaterThan(MEMBERS / 2);
    expect(derived.ranked).toBe(derived.holders);
    expect(derived.rollupRows).toBe(derived.ledgerRows);
  });

  it('gives member1 the heaviest history, and member1 signs in with SCALE_PASSWORD', async () => {
    const top = await db.query<{ nickname: string; n: number }>(
      `SELECT u.nickname, count(*)::int AS n FROM bank_transactions t
         JOIN users u ON u.id = t.sender_id OR u.id = t.recipient_id
        WHERE u.role <> 'admin' AND NOT u.is_system GROUP BY 1 ORDER BY 2 DESC LIMIT 2`,
    );
    expect(top.rows[0]?.nickname).toBe('member1');
    expect(top.rows[0]?.n).toBeGreaterThanOrEqual(10_000);
    const m1 = await one<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM exchange_orders WHERE user_id = u.id) AS orders,
              (SELECT count(*)::int FROM forge_processes WHERE user_id = u.id) AS processes,
              (SELECT count(*)::int FROM checkout_transactions WHERE user_id = u.id) AS checkouts,
              (SELECT count(*)::int FROM items WHERE owner_id = u.id) AS items
         FROM users u WHERE nickname = 'member1'`,
    );
    expect(m1.orders).toBeGreaterThanOrEqual(1000);
    expect(m1.processes).toBeGreaterThanOrEqual(500);
    expect(m1.checkouts).toBeGreaterThanOrEqual(200);
    expect(m1.items).toBeGreaterThanOrEqual(1000);

    const res = await call(built.app, undefined, 'POST', '/api/user/login', {
      nickOrEmail: 'member1@scale.example',
      password: PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<AuthResponse>().user.nickname).toBe('member1');
    const wrong = await call(built.app, undefined, 'POST', '/api/user/login', {
      nickOrEmail: 'member2',
      password: 'Scale-Passw0rd!',
    });
    expect(wrong.statusCode).toBe(401);
  });

  it("gives members the last 90 days' transfers and fills as notifications, and broadcasts, which member1 reads", async () => {
    const n = await one<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM notifications WHERE kind <> 'security') AS own,
              (SELECT count(*)::int FROM bank_transactions WHERE category = 3 AND created_at >= now() - interval '90 days')
              + (SELECT 2 * count(*)::int FROM exchange_trades WHERE created_at >= now() - interval '90 days') AS announced,
              (SELECT count(*)::int FROM notifications WHERE created_at < now() - interval '91 days') AS stale,
              (SELECT count(*)::int FROM broadcasts) AS broadcasts`,
    );
    expect(n.own).toBeGreaterThan(0);
    // One per transfer received and one per side of a trade in the kept days (the clock moved on a little
    // since the seed).
    expect(Math.abs((n.own ?? 0) - (n.announced ?? 0))).toBeLessThanOrEqual(10);
    // This file's own sign-ins (member1 from a new device) write `security` notices beside the seeded kinds.
    const kinds = await db.query<{ kind: string }>(
      "SELECT DISTINCT kind FROM notifications WHERE kind <> 'security' ORDER BY 1",
    );
    expect(kinds.rows.map((r) => r.kind)).toEqual(['order_filled', 'transfer_received']);
    expect(n.stale).toBe(0);
    expect(n.broadcasts).toBe(30);
    const res = await call(built.app, undefined, 'POST', '/api/user/login', {
      nickOrEmail: 'member1@scale.example',
      password: PASSWORD,
    });
    const { token } = res.json<AuthResponse>();
    // The newest 50: broadcasts every three days and this file's sign-in notice sit among member1's own.
    const page = await call(built.app, token, 'POST', '/api/user/notifications', { paging: { page: 1, limit: 50 } });
    expect(page.statusCode, page.body).toBe(200);
    const body = page.json<NotificationsResponse>();
    expect(body.notifications).toHaveLength(Math.min(50, body.total));
    expect(body.total).toBeGreaterThan(body.unread);
    expect(body.notifications.some((x) => x.kind === 'transfer_received' && /^You received /.test(x.title))).toBe(true);
  });

  it("lists items on the market by their owners, member1's among them, browsable and cheapest first", async () => {
    const m = await one<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM market_listings WHERE state = 'open') AS open,
              (SELECT count(*)::int FROM market_listings l JOIN items i ON i.id = l.item_id
                WHERE l.seller_id <> i.owner_id) AS not_owned,
              (SELECT count(*)::int FROM market_listings l JOIN users u ON u.id = l.seller_id
                WHERE u.nickname = 'member1') AS member1,
              (SELECT count(DISTINCT royalty)::int FROM item_collections) AS royalties,
              (SELECT count(*)::int FROM market_listings WHERE state = 'open' AND currency_id = 1) AS open_in_1`,
    );
    expect(m.open).toBeGreaterThanOrEqual(300);
    expect(m.not_owned).toBe(0);
    expect(m.member1).toBe(50);
    expect(m.royalties).toBeGreaterThan(1);
    const page = await call(built.app, undefined, 'POST', '/api/market/listings', {
      paging: { page: 1, limit: 10 },
      currencyId: 1,
      sort: 'price',
    });
    expect(page.statusCode, page.body).toBe(200);
    // The total comes from the counts the seed rebuilt after loading with the triggers off.
    expect(page.json<ListingsResponse>().total).toBe(m.open_in_1);
    const prices = page.json<ListingsResponse>().listings.map((l) => Number(l.price));
    expect(prices).toHaveLength(10);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });

  it('prints how long it should take before it starts, and creates a database that does not exist', () => {
    expect(logged[0]).toBe(`[scale-seed] ${MEMBERS} members and ${TX} ledger rows`);
    expect(logged[1]).toBe(`[scale-seed] created the database ${DB}`);
    // The estimate comes once the database answers, scaled by a test load timed on it.
    const estimate = logged.find((l) => l.includes('expect about'));
    expect(estimate).toMatch(
      /^\[scale-seed\] expect about \d+ min here: a test load took \d+\.\d\d s \(0\.55 s where the defaults took 7 min 34 s\)$/,
    );
    expect(logged.indexOf(estimate ?? '')).toBeLessThan(logged.findIndex((l) => l.includes('app seed done')));
    expect(estimatedMinutes(loadScaleSettings({}))).toBe(8);
    expect(estimatedMinutes(loadScaleSettings({}), 1.5)).toBe(19);
    expect(estimatedMinutes(loadScaleSettings({ SCALE_MEMBERS: '100000', SCALE_TX: '1000000' }))).toBe(2);
  });

  it('refuses a bad number, a negative size, a database with members and PGlite above 50,000', async () => {
    const url = testDatabaseUrl(DB);
    await expect(runScaleSeed(env(url, { SCALE_MEMBERS: 'lots' }), () => {})).rejects.toThrow(
      'SCALE_MEMBERS must be a number (got "lots")',
    );
    await expect(runScaleSeed(env(url, { SCALE_MEMBERS: '-5' }), () => {})).rejects.toThrow(
      'SCALE_MEMBERS must not be negative (got -5)',
    );
    await expect(runScaleSeed(env(url, { SCALE_TX: '-1' }), () => {})).rejects.toThrow(
      'SCALE_TX must not be negative (got -1)',
    );
    await expect(runScaleSeed(env(url, { SCALE_PASSWORD: 'weak' }), () => {})).rejects.toThrow(
      'SCALE_PASSWORD: Password not strong enough',
    );
    await expect(runScaleSeed(env(url, { SCALE_MEMBERS: '2000', SCALE_TX: '40000' }), () => {})).rejects.toThrow(
      `The database already holds ${MEMBERS} member(s) besides the admin`,
    );
    await expect(runScaleSeed(env(undefined, { SCALE_MEMBERS: '50001' }), () => {})).rejects.toThrow(
      'SCALE_MEMBERS=50001 is more than the embedded PGlite takes (50000): use PostgreSQL (set DATABASE_URL)',
    );
    // Nothing was added by the refused runs.
    const n = await one<{ n: number }>(`SELECT count(*)::int AS n FROM bank_transactions`);
    expect(n.n).toBe(TX);
  });
});
