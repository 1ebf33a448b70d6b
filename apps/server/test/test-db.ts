/** Where the tests' PostgreSQL lives (DESIGN §2: TEST_DATABASE_URL) and the config every test app starts from. */
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Config, loadConfig } from '../src/config.ts';

export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** STARLIGHT_TEST_DB names another database, so that two checkouts can run their tests side by side. */
export const TEST_DB_NAME = process.env.STARLIGHT_TEST_DB ?? 'starlight_test';

/** The URL of the test database on the same server. */
export function testDatabaseUrl(name = TEST_DB_NAME): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export const TEST_ADMIN = { nickname: 'admin', email: 'admin@starlight.test', password: 'Admin-Passw0rd!' };
export const TEST_JWT_SECRET = 'test-secret-test-secret-test-secret-0123456789';

/**
 * A test config on the test database, quiet, with the test admin and secret and no practical rate limit;
 * `overrides` replace any variable (undefined removes it, e.g. `DATABASE_URL` for PGlite).
 */
export function testConfig(overrides: Record<string, string | undefined> = {}): Config {
  const env: Record<string, string | undefined> = {
    DATABASE_URL: testDatabaseUrl(),
    // Files the app writes (the mail outbox) go to a scratch folder, never into the checkout.
    DATA_DIR: path.join(tmpdir(), 'starlight-test-data'),
    LOG_LEVEL: 'silent',
    JWT_SECRET: TEST_JWT_SECRET,
    ADMIN_NICKNAME: TEST_ADMIN.nickname,
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    RATE_LIMIT_AUTH: '100000',
    RATE_LIMIT_LOGIN_FAILURES: '100000',
    // No demo community (seed-demo.ts) on a test's embedded database: seed.demo.test.ts asks for it.
    SEED_DEMO: 'off',
    // Admins without a second factor (tests about it set ADMIN_MFA=required: http.admin-mfa.test.ts).
    ADMIN_MFA: 'optional',
    ...overrides,
  };
  return loadConfig(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)));
}
