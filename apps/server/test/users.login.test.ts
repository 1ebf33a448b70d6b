/**
 * Password sign-in and sessions (SPEC §5, §7 login / me / logout; DESIGN §8): by nickname or e-mail in any
 * case, one answer for a wrong password and an unknown account, inactive accounts refused, access log rows
 * with the client address (X-Forwarded-For believed only from TRUST_PROXY); tokens that are garbage,
 * forged, unsigned or expired refused, a session of 24 hours, and logout ending it (only it) on the server.
 */
import type { AuthResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, type Member, makeApp, PASSWORD, registerMember, uniqueNick, useTestApp } from './helpers.ts';
import { TEST_JWT_SECRET } from './test-db.ts';
import { login, userRows } from './users.helpers.ts';

const t = useTestApp();
const { rows } = userRows(t);

describe('login', () => {
  let member: Member;
  beforeAll(async () => {
    member = await registerMember(t.app, 'login');
  });

  it('signs in by nickname, in any case', async () => {
    const res = await login(t.app, member.nickname.toUpperCase(), PASSWORD);
    expect(res.statusCode, res.body).toBe(200);
    const out = res.json<AuthResponse>();
    expect(out.user.nickname).toBe(member.nickname);
    expect(out.token).toEqual(expect.any(String));
    expect((await call(t.app, out.token, 'GET', '/api/user/me')).statusCode).toBe(200);
  });

  it('signs in by e-mail', async () => {
    const res = await login(t.app, member.email, PASSWORD);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<AuthResponse>().user.nickname).toBe(member.nickname);
  });

  it('answers a wrong password and an unknown account alike: 401 Incorrect password', async () => {
    const wrong = await login(t.app, member.nickname, 'Wr0ng!Password');
    const unknown = await login(t.app, uniqueNick('nobody'), PASSWORD);
    const unknownEmail = await login(t.app, `${uniqueNick('nobody')}@example.test`, PASSWORD);
    for (const res of [wrong, unknown, unknownEmail]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Incorrect password' });
    }
  });

  it('answers 400 for a missing field', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/user/login', payload: { nickOrEmail: 'someone' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('"password" is required');
  });

  it('refuses an inactive account with 403 and ends its open sessions (401)', async () => {
    const m = await registerMember(t.app, 'inactive');
    await t.built.database.db.execute(sql`UPDATE users SET is_active = false WHERE id = ${m.id}`);
    const res = await login(t.app, m.nickname, PASSWORD);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toEqual(expect.any(String));
    expect((await call(t.app, m.token, 'GET', '/api/user/me')).statusCode).toBe(401);
  });

  it('writes an access log row of type 1 with the caller IP', async () => {
    const m = await registerMember(t.app, 'access');
    const res = await login(t.app, m.nickname, PASSWORD, '198.51.100.23');
    expect(res.statusCode, res.body).toBe(200);
    const logs = await rows<{ login_type: number; address: string }>(
      sql`SELECT login_type, address FROM access_logs WHERE user_id = ${m.id} ORDER BY created_at, id`,
    );
    // One row for the registration's sign-in, one for this login.
    expect(logs).toHaveLength(2);
    expect(logs[1]).toEqual({ login_type: 1, address: '198.51.100.23' });
    expect(logs.every((l) => l.login_type === 1)).toBe(true);
  });

  /** Signs `m` in through `app` from `remoteAddress`, claiming `forwardedFor`; answers the logged address. */
  async function loggedAddress(app: FastifyInstance, m: Member, remoteAddress: string, forwardedFor: string) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/user/login',
      remoteAddress,
      headers: { 'x-forwarded-for': forwardedFor },
      payload: { nickOrEmail: m.nickname, password: PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [log] = await rows<{ address: string }>(
      sql`SELECT address FROM access_logs WHERE user_id = ${m.id} ORDER BY created_at DESC, id DESC LIMIT 1`,
    );
    return log?.address;
  }

  it("believes no X-Forwarded-For by default: the address is the connection's, whoever claims otherwise", async () => {
    const m = await registerMember(t.app, 'proxied');
    expect(await loggedAddress(t.app, m, '127.0.0.1', '198.51.100.77')).toBe('127.0.0.1');
    expect(await loggedAddress(t.app, m, '10.0.0.5', '198.51.100.78')).toBe('10.0.0.5');
  });

  it('takes the client IP from X-Forwarded-For only when a configured proxy (TRUST_PROXY) sent it', async () => {
    const behindProxy = await makeApp({ TRUST_PROXY: '10.0.0.0/8' });
    try {
      const m = await registerMember(behindProxy.app, 'proxied');
      expect(await loggedAddress(behindProxy.app, m, '10.0.0.5', '198.51.100.77')).toBe('198.51.100.77');
      expect(await loggedAddress(behindProxy.app, m, '203.0.113.99', '198.51.100.78')).toBe('203.0.113.99');
    } finally {
      await behindProxy.app.close();
    }
  });

  it('writes no access log row for a failed sign-in', async () => {
    const m = await registerMember(t.app, 'nolog');
    expect((await login(t.app, m.nickname, 'Wr0ng!Password')).statusCode).toBe(401);
    const logs = await rows<{ n: string }>(sql`SELECT count(*) AS n FROM access_logs WHERE user_id = ${m.id}`);
    expect(Number(logs[0]?.n)).toBe(1);
  });
});

describe('sessions', () => {
  it('me: 401 Not authorized without a token', async () => {
    const res = await call(t.app, undefined, 'GET', '/api/user/me');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Not authorized' });
  });

  it('me: 401 Not authorized with a garbage token or a token signed with another secret', async () => {
    const m = await registerMember(t.app, 'forged');
    const forged = await new SignJWT({ role: 'admin', tv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(m.id)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));
    for (const token of ['garbage', 'a.b.c', forged]) {
      const res = await call(t.app, token, 'GET', '/api/user/me');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Not authorized' });
    }
    const notBearer = await t.app.inject({ method: 'GET', url: '/api/user/me', headers: { authorization: m.token } });
    expect(notBearer.statusCode).toBe(401);
  });

  it('me: 401 Not authorized for an unsigned token (alg none)', async () => {
    const m = await registerMember(t.app, 'algnone');
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const unsigned = `${part({ alg: 'none', typ: 'JWT' })}.${part({ sub: m.id, role: 'admin', tv: 0, iat: now, exp: now + 3600 })}.`;
    const res = await call(t.app, unsigned, 'GET', '/api/user/me');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Not authorized' });
    expect((await call(t.app, m.token, 'GET', '/api/user/me')).statusCode).toBe(200);
  });

  it('me: 401 Token expired with an expired token', async () => {
    const m = await registerMember(t.app, 'expired');
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ role: 'user', tv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(m.id)
      .setIssuedAt(now - 25 * 3600)
      .setExpirationTime(now - 3600)
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));
    const res = await call(t.app, expired, 'GET', '/api/user/me');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Token expired' });
  });

  it('a session lasts 24 hours', async () => {
    const m = await registerMember(t.app, 'ttl');
    const [, payload] = m.token.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as { iat: number; exp: number };
    expect(claims.exp - claims.iat).toBe(24 * 3600);
  });

  it("logout ends the current session on the server; the member's other sessions go on", async () => {
    const m = await registerMember(t.app, 'logout');
    const second = (await login(t.app, m.nickname, PASSWORD)).json<AuthResponse>().token;
    const res = await call(t.app, m.token, 'POST', '/api/user/logout');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('You have been logged out');
    const me = await call(t.app, m.token, 'GET', '/api/user/me');
    expect(me.statusCode).toBe(401);
    expect(me.json().message).toBe('Not authorized');
    expect((await call(t.app, second, 'GET', '/api/user/me')).statusCode).toBe(200);
    const fresh = await login(t.app, m.nickname, PASSWORD);
    expect(fresh.statusCode).toBe(200);
    expect((await call(t.app, fresh.json<AuthResponse>().token, 'GET', '/api/user/me')).statusCode).toBe(200);
  });
});
