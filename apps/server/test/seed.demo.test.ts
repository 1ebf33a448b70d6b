/**
 * The demo community of a first start (seed-demo.ts): on a new database with `SEED_DEMO=on` its members
 * sign in, the pair has resting orders on both sides and trades, the packages are published, the recipe
 * is active and the collection has items, and the audit holds; a second start adds nothing; `off`, and a
 * `DATABASE_URL` without `SEED_DEMO`, make none; the embedded database makes it by default.
 */
import type { AuthResponse, GetOrdersResponse, PackagesResponse, Pair, TradesResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { type BuiltApp, buildApp } from '../src/app.ts';
import { DEMO_PASSWORD } from '../src/seed-demo.ts';
import { call, expectLedgerBalanced, loginAdmin, makeAppOnOwnDatabase, PASSWORD, testConfig } from './helpers.ts';
import { TEST_DB_NAME, testDatabaseUrl } from './test-db.ts';

const DEMO = ['nova', 'orion', 'lyra', 'vega'];
const opened: BuiltApp[] = [];

afterAll(async () => {
  for (const built of opened) await built.app.close();
});

function keep(built: BuiltApp): BuiltApp {
  opened.push(built);
  return built;
}

async function signIn(app: FastifyInstance, nickname: string, password: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/user/login',
    payload: { nickOrEmail: nickname, password },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<AuthResponse>().token;
}

/** How many rows the demo's tables hold: a second start must not change one. */
async function counts(built: BuiltApp): Promise<Record<string, string>> {
  const res = await built.database.db.execute<Record<string, string>>(sql`SELECT
    (SELECT count(*) FROM users)::text AS users, (SELECT count(*) FROM bank_transactions)::text AS ledger,
    (SELECT count(*) FROM exchange_orders)::text AS orders, (SELECT count(*) FROM exchange_pairs)::text AS pairs,
    (SELECT count(*) FROM checkout_packages)::text AS packages, (SELECT count(*) FROM forge_recipes)::text AS recipes,
    (SELECT count(*) FROM items)::text AS items`);
  return res.rows[0] as Record<string, string>;
}

/** Asserts the whole demo community through the API, signed in as `password`'s members. */
async function expectDemo(app: FastifyInstance, password: string): Promise<void> {
  const tokens = [];
  for (const nick of DEMO) tokens.push(await signIn(app, nick, password));
  const nova = tokens[0] as string;

  const pairs = (await call(app, undefined, 'GET', '/api/cex/getPairs')).json<{ pairs: Pair[] }>().pairs;
  expect(pairs).toHaveLength(1);
  const pair = (pairs[0] as Pair)._id;
  const book = (await call(app, undefined, 'POST', '/api/cex/getOrders', { pair })).json<GetOrdersResponse>().orders;
  expect(book.buys.length).toBeGreaterThan(0);
  expect(book.sells.length).toBeGreaterThan(0);
  const trades = (await call(app, undefined, 'POST', '/api/cex/getTrades', { pair })).json<TradesResponse>().trades;
  expect(trades.length).toBeGreaterThanOrEqual(2);

  const packages = (await call(app, nova, 'GET', '/api/checkout/packages/fetch')).json<PackagesResponse>().packages;
  expect(packages.length).toBeGreaterThanOrEqual(1);
  expect(packages.every((p) => p.published && p.active)).toBe(true);

  const recipes = (await call(app, nova, 'GET', '/api/forge/recipes/fetch')).json<{
    recipes: Array<{ active: boolean }>;
  }>().recipes;
  expect(recipes.filter((r) => r.active)).toHaveLength(1);

  const collections = (await call(app, nova, 'POST', '/api/inventory/getCollections', {})).json<{
    data: Array<{ _id: string; name: string }>;
  }>().data;
  const fleet = collections.find((c) => c.name === 'Demo Fleet');
  expect(fleet).toBeDefined();
  const items = await call(app, nova, 'POST', '/api/inventory/getItems', {
    itemCollection: fleet?._id,
    paging: { limit: 10, page: 1 },
  });
  expect(items.statusCode, items.body).toBe(200);
  expect(items.json<{ data: unknown[] }>().data.length).toBeGreaterThanOrEqual(DEMO.length);
}

describe('the demo community', () => {
  it('is seeded once on a new PostgreSQL database with SEED_DEMO=on, and the audit holds', async () => {
    const first = keep(await makeAppOnOwnDatabase('demo', { SEED_DEMO: 'on' }));
    expect(first.demo?.nicknames).toEqual(DEMO);
    const password = first.demo?.password as string;
    expect(password).toBeDefined();
    await expectDemo(first.app, password);
    await expectLedgerBalanced(first.app, await loginAdmin(first.app));
    const before = await counts(first);

    // Two more starts at once, as replicas do: the demo exists, neither seeds it again.
    const config = testConfig({ DATABASE_URL: testDatabaseUrl(`${TEST_DB_NAME}_demo`), SEED_DEMO: 'on' });
    const again = (await Promise.all([buildApp(config), buildApp(config)])).map(keep);
    for (const built of again) {
      expect(built.demo).toEqual({ nicknames: DEMO });
      expect(await counts(built)).toEqual(before);
    }
  });

  it('is seeded once by replicas starting together on a database with no demo yet', async () => {
    keep(await makeAppOnOwnDatabase('demo_race', { SEED_DEMO: 'off' }));
    const config = testConfig({ DATABASE_URL: testDatabaseUrl(`${TEST_DB_NAME}_demo_race`), SEED_DEMO: 'on' });
    const both = (await Promise.all([buildApp(config), buildApp(config)])).map(keep);
    expect(both.filter((b) => b.demo?.password !== undefined)).toHaveLength(1);
    const seeder = both.find((b) => b.demo?.password) as BuiltApp;
    await expectDemo(seeder.app, seeder.demo?.password as string);
    expect((await counts(seeder)).pairs).toBe('1');
    await expectLedgerBalanced(seeder.app, await loginAdmin(seeder.app));
  });

  it('is not seeded, and the start goes on, when a member has one of its nicknames', async () => {
    const first = keep(await makeAppOnOwnDatabase('demo_taken', { SEED_DEMO: 'off' }));
    const res = await first.app.inject({
      method: 'POST',
      url: '/api/user/register',
      payload: { nickname: 'lyra', email: 'lyra@example.test', password: PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(200);
    const config = testConfig({ DATABASE_URL: testDatabaseUrl(`${TEST_DB_NAME}_demo_taken`), SEED_DEMO: 'on' });
    const again = keep(await buildApp(config));
    expect(again.demo).toBeNull();
    expect(await counts(again)).toMatchObject({ pairs: '0', orders: '0', recipes: '0', packages: '0', items: '0' });
  });

  it('is not seeded on a DATABASE_URL database without SEED_DEMO', async () => {
    const built = keep(await makeAppOnOwnDatabase('demo_unset', { SEED_DEMO: undefined }));
    expect(built.demo).toBeNull();
    expect(await counts(built)).toMatchObject({ pairs: '0', orders: '0', recipes: '0', packages: '0', items: '0' });
  });

  it('is seeded by default on a new embedded database, with the documented password', async () => {
    const built = keep(
      await buildApp(testConfig({ DATABASE_URL: undefined, DATA_DIR: 'memory://', SEED_DEMO: undefined })),
    );
    expect(built.demo).toEqual({ nicknames: DEMO, password: DEMO_PASSWORD });
    await expectDemo(built.app, DEMO_PASSWORD);
    await expectLedgerBalanced(built.app, await loginAdmin(built.app));
    // A new embedded database runs every migration in WebAssembly: slow on a busy machine.
  }, 300_000);

  it('is not seeded on a new embedded database with SEED_DEMO=off', async () => {
    const built = keep(
      await buildApp(testConfig({ DATABASE_URL: undefined, DATA_DIR: 'memory://', SEED_DEMO: 'off' })),
    );
    expect(built.demo).toBeNull();
    expect(await counts(built)).toMatchObject({ pairs: '0', orders: '0', recipes: '0', packages: '0', items: '0' });
    const res = await built.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { nickOrEmail: 'nova', password: DEMO_PASSWORD },
    });
    expect(res.statusCode).not.toBe(200);
    // A new embedded database runs every migration in WebAssembly: slow on a busy machine.
  }, 300_000);
});
