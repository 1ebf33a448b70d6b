/**
 * Test helpers: the whole app built on the test PostgreSQL, freshly made members, and the money
 * checks every money test ends with (conservation and no negative balance).
 */
import { randomBytes } from 'node:crypto';
import { type AuditResponse, type AuthResponse, fromNumeric, toDecimalString } from '@starlight/shared';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import { type BuiltApp, buildApp } from '../src/app.ts';
import { sqlErrorOf } from '../src/db/errors.ts';
import { ADMIN_URL, TEST_ADMIN, TEST_DB_NAME, testConfig, testDatabaseUrl } from './test-db.ts';

export { testConfig } from './test-db.ts';

export const PASSWORD = 'Str0ng!Passw0rd';

/** Builds the app on the test database. Close it in afterAll. */
export async function makeApp(overrides: Record<string, string> = {}): Promise<BuiltApp> {
  return buildApp(testConfig(overrides));
}

/**
 * Builds the app on a database of its own on the test server, `<test database>_<name>`, made empty
 * (migrated and seeded by the build), for a file whose tests change what every other file shares (the
 * synth chip sale's supply). It stays after the run for a look; the next run makes it afresh.
 */
export async function makeAppOnOwnDatabase(
  name: string,
  overrides: Record<string, string | undefined> = {},
): Promise<BuiltApp> {
  const db = `${TEST_DB_NAME}_${name}`;
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${db}`);
  } finally {
    await client.end();
  }
  return buildApp(testConfig({ DATABASE_URL: testDatabaseUrl(db), ...overrides }));
}

/** Builds the app on a fresh in-memory PGlite database (no DATABASE_URL, DESIGN §1). Close it in afterAll. */
export async function makePgliteApp(): Promise<BuiltApp> {
  return buildApp(testConfig({ DATABASE_URL: undefined, DATA_DIR: 'memory://' }));
}

/** A unique alphanumeric nickname (SPEC §5: 3 to 32). */
export function uniqueNick(prefix = 'm'): string {
  return `${prefix}${randomBytes(6).toString('hex')}`.slice(0, 32);
}

export interface Member {
  id: string;
  nickname: string;
  email: string;
  token: string;
}

/** Registers a new member through the API. */
export async function registerMember(app: FastifyInstance, prefix = 'm'): Promise<Member> {
  const nickname = uniqueNick(prefix);
  const email = `${nickname}@example.test`;
  const res = await app.inject({
    method: 'POST',
    url: '/api/user/register',
    payload: { nickname, email, password: PASSWORD },
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<AuthResponse>();
  return { id: body.user._id, nickname, email, token: body.token };
}

/** Signs in as the seeded admin. */
export async function loginAdmin(app: FastifyInstance): Promise<Member> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/user/login',
    payload: { nickOrEmail: TEST_ADMIN.nickname, password: TEST_ADMIN.password },
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<AuthResponse>();
  return { id: body.user._id, nickname: body.user.nickname, email: TEST_ADMIN.email, token: body.token };
}

/** Gives a member another role directly in the database and signs them in again. */
export async function withRole(built: BuiltApp, member: Member, role: 'admin' | 'creator' | 'user'): Promise<Member> {
  const { sql } = await import('drizzle-orm');
  await built.database.db.execute(sql`UPDATE users SET role = ${role} WHERE id = ${member.id}`);
  const res = await built.app.inject({
    method: 'POST',
    url: '/api/user/login',
    payload: { nickOrEmail: member.nickname, password: PASSWORD },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { ...member, token: res.json<AuthResponse>().token };
}

/**
 * A session token for an account made straight in the database (no password to sign in with): a
 * session row as a sign-in starts (`startSession`), `tokenVersion` the one the token carries.
 */
export async function sessionTokenFor(
  built: BuiltApp,
  user: { id: string; role?: string; tokenVersion?: number },
): Promise<string> {
  const { startSession } = await import('../src/modules/users/sessions.service.ts');
  return startSession(
    { db: built.database.db, app: built.app },
    { id: user.id, role: user.role ?? 'user', tokenVersion: user.tokenVersion ?? 0 },
    { address: '127.0.0.1', userAgent: 'vitest' },
  );
}

/** An injected request with a bearer token. */
export function call(
  app: FastifyInstance,
  token: string | undefined,
  method: 'GET' | 'POST',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  const opts: InjectOptions = {
    method,
    url,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  };
  if (payload !== undefined) opts.payload = payload as InjectOptions['payload'];
  return app.inject(opts);
}

/**
 * Polls `read` until `done` holds (another server hears a change over the bus), for at most 5 s; returns
 * the last value read, done or not, for the caller to assert on.
 */
export async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const until = Date.now() + 5000;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Mints `amount` of a currency to a member as the admin; expects success. */
export async function mint(app: FastifyInstance, admin: Member, to: string, currencyId: number, amount: string) {
  const res = await call(app, admin.token, 'POST', '/api/bank/mint', {
    recipientNickName: to,
    currencyId,
    amount,
    note: 'test mint',
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** A wire amount ("49.50") as its value in the fewest decimals ("49.5"); undefined stays undefined. */
export function amountValue(wire: string | undefined): string | undefined {
  return wire === undefined ? undefined : toDecimalString(fromNumeric(wire));
}

/**
 * A member's balance of one currency as its value in the fewest decimals ("49.5", "0" when none), so
 * money tests compare values; the wire's own format ("49.50" at precision 2) is asserted in
 * bank.amounts.test.ts.
 */
export async function balanceOf(app: FastifyInstance, member: Member, currencyId: number): Promise<string> {
  const res = await call(app, member.token, 'GET', '/api/user/me');
  expect(res.statusCode, res.body).toBe(200);
  const b = res.json<{ user: { balances: Array<{ currencyId: number; amount: string }> } }>().user.balances;
  const wire = b.find((x) => x.currencyId === currencyId)?.amount;
  return amountValue(wire) ?? '0';
}

/** Asserts DESIGN §4 conservation per currency and that no balance is negative, through the audit route. */
export async function expectLedgerBalanced(app: FastifyInstance, admin: Member): Promise<AuditResponse> {
  const res = await call(app, admin.token, 'GET', '/api/bank/audit');
  expect(res.statusCode, res.body).toBe(200);
  const audit = res.json<AuditResponse>();
  for (const c of audit.currencies) {
    expect(c.difference, `currency ${c.ticker} conservation`).toMatch(/^0(\.0+)?$/);
    expect(c.negativeBalances, `currency ${c.ticker} negative balances`).toBe(0);
  }
  expect(audit.ok).toBe(true);
  return audit;
}

/** The SQLSTATE `run` fails with (through Drizzle it sits in `cause`), or null when it succeeds. */
export async function sqlStateOf(run: () => Promise<unknown>): Promise<string | null> {
  try {
    await run();
    return null;
  } catch (err) {
    return sqlErrorOf(err).code ?? 'unknown';
  }
}

/** What `useTestApp()` gives a test file: the built app, its Fastify instance and the signed-in admin. */
export interface TestApp {
  built: BuiltApp;
  app: FastifyInstance;
  admin: Member;
}

/**
 * Builds the app on the test database before the file's (or the describe block's) tests, signs the
 * seeded admin in, and closes the app after them. Read the fields inside tests or hooks (they are set
 * in `beforeAll`). `overrides` are config variables, as for `makeApp`; `options.build` builds the app
 * another way (e.g. `makePgliteApp`).
 */
export function useTestApp(
  overrides: Record<string, string> = {},
  options: { build?: () => Promise<BuiltApp> } = {},
): TestApp {
  const ctx = {} as TestApp;
  beforeAll(async () => {
    ctx.built = await (options.build ? options.build() : makeApp(overrides));
    ctx.app = ctx.built.app;
    ctx.admin = await loginAdmin(ctx.app);
  });
  afterAll(async () => {
    await ctx.built?.app.close();
  });
  return ctx;
}
