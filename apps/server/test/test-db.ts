/** Where the tests' PostgreSQL lives (DESIGN §2: TEST_DATABASE_URL). */
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
