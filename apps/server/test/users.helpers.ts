/**
 * Helpers of the users' API tests: registration and password sign-in requests (from a chosen address),
 * fresh registration bodies, and rows read from the test database.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { PASSWORD, type TestApp, uniqueNick } from './helpers.ts';

/** POST /api/user/register with `payload`, from `remoteAddress` when given. */
export function register(app: FastifyInstance, payload: unknown, remoteAddress?: string) {
  return app.inject({
    method: 'POST',
    url: '/api/user/register',
    payload: payload as Record<string, unknown>,
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

/** POST /api/user/login, from `remoteAddress` when given. */
export function login(app: FastifyInstance, nickOrEmail: string, password: string, remoteAddress?: string) {
  return app.inject({
    method: 'POST',
    url: '/api/user/login',
    payload: { nickOrEmail, password },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

/** A fresh, valid registration body. */
export function newAccount(prefix = 'u') {
  const nickname = uniqueNick(prefix);
  return { nickname, email: `${nickname}@example.test`, password: PASSWORD };
}

/** Queries on the database of a test file's app `t` (read when called). */
export function userRows(t: TestApp) {
  /** Rows of a query on the test database. */
  async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
    const res = await t.built.database.db.execute(query);
    return res.rows as T[];
  }

  async function userExists(nickname: string): Promise<boolean> {
    const found = await rows<{ id: string }>(sql`SELECT id FROM users WHERE lower(nickname) = lower(${nickname})`);
    return found.length > 0;
  }

  return { rows, userExists };
}
