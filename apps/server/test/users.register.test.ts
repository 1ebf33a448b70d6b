import type { AuthResponse, User } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, type Member, makeApp, PASSWORD, registerMember, uniqueNick, useTestApp } from './helpers.ts';
import { TEST_JWT_SECRET } from './test-db.ts';

function register(app: FastifyInstance, payload: unknown, remoteAddress?: string) {
  return app.inject({
    method: 'POST',
    url: '/api/user/register',
    payload: payload as Record<string, unknown>,
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

function login(app: FastifyInstance, nickOrEmail: string, password: string, remoteAddress?: string) {
  return app.inject({
    method: 'POST',
    url: '/api/user/login',
    payload: { nickOrEmail, password },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

/** A fresh, valid registration body. */
function newAccount(prefix = 'u') {
  const nickname = uniqueNick(prefix);
  return { nickname, email: `${nickname}@example.test`, password: PASSWORD };
}

const t = useTestApp();

/** Rows of a query on the test database. */
async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const res = await t.built.database.db.execute(query);
  return res.rows as T[];
}

async function userExists(nickname: string): Promise<boolean> {
  const found = await rows<{ id: string }>(sql`SELECT id FROM users WHERE lower(nickname) = lower(${nickname})`);
  return found.length > 0;
}

describe('register', () => {
  it('creates the account, signs it in and never returns secrets', async () => {
    const body = newAccount();
    const res = await register(t.app, body);
    expect(res.statusCode, res.body).toBe(200);
    const out = res.json<AuthResponse>();
    expect(out.token).toEqual(expect.any(String));
    expect(out.message).toEqual(expect.any(String));
    expect(out.user).toMatchObject({
      nickname: body.nickname,
      email: body.email,
      role: 'user',
      isActive: true,
      isAnonymous: false,
      isEmailVerified: false,
      isWalletOnly: false,
      referrer: null,
      fame: 0,
      balances: [],
    });
    expect(out.user._id).toMatch(/^[0-9a-f]{24}$/);
    expect(res.body).not.toContain('passwordHash');
    expect(res.body).not.toContain('argon2');
    expect(res.body).not.toContain(PASSWORD);
    const me = await call(t.app, out.token, 'GET', '/api/user/me');
    expect(me.statusCode).toBe(200);
    expect(me.json<{ user: User }>().user.nickname).toBe(body.nickname);
  });

  it.each(['nickname', 'email', 'password'] as const)(
    'answers 400 "%s" is required when it is missing',
    async (field) => {
      const body: Record<string, string> = newAccount();
      delete body[field];
      const res = await register(t.app, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(`"${field}" is required`);
    },
  );

  it('lists every field error', async () => {
    const res = await register(t.app, {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: '"nickname" is required',
      errors: [
        { field: 'nickname', message: '"nickname" is required' },
        { field: 'email', message: '"email" is required' },
        { field: 'password', message: '"password" is required' },
      ],
    });
  });

  it.each([
    ['non-alphanumeric', 'star_farer'],
    ['with a space', 'star farer'],
    ['too short', 'ab'],
    ['too long', 'x'.repeat(33)],
  ])('refuses a %s nickname', async (_label, nickname) => {
    const res = await register(t.app, { ...newAccount(), nickname });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('"nickname" contains an invalid value');
  });

  it.each(['not-an-email', 'a@', '@example.test', `${'x'.repeat(250)}@example.test`])(
    'refuses the e-mail %s',
    async (email) => {
      const res = await register(t.app, { ...newAccount(), email });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('"email" contains an invalid value');
    },
  );

  it('stores the e-mail lowercased and signs in with any case', async () => {
    const body = newAccount();
    const res = await register(t.app, { ...body, email: body.email.toUpperCase() });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<AuthResponse>().user.email).toBe(body.email.toLowerCase());
    const again = await login(t.app, body.email.toUpperCase(), PASSWORD);
    expect(again.statusCode, again.body).toBe(200);
  });

  it.each([
    ['shorter than 8', 'Ab1!xyz'],
    ['longer than 32', `Ab1!${'x'.repeat(29)}`],
    ['with whitespace', 'Ab1! xyzw'],
    ['without lowercase', 'AB1!XYZW'],
    ['without uppercase', 'ab1!xyzw'],
    ['without a digit', 'Abc!xyzw'],
    ['without a symbol', 'Ab1cxyzw'],
  ])('refuses a password %s with "Password not strong enough"', async (_label, password) => {
    const body = { ...newAccount(), password };
    const res = await register(t.app, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Password not strong enough');
    expect(await userExists(body.nickname)).toBe(false);
  });

  it('refuses an unknown field such as role and creates nobody', async () => {
    const body = newAccount();
    const res = await register(t.app, { ...body, role: 'admin' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('"role" is not allowed');
    expect(res.json().errors).toEqual([{ field: 'role', message: '"role" is not allowed' }]);
    expect(await userExists(body.nickname)).toBe(false);
    const signIn = await login(t.app, body.nickname, PASSWORD);
    expect(signIn.statusCode).toBe(401);
  });

  it('refuses a nickname taken in another case with 409', async () => {
    const first = newAccount('dup');
    expect((await register(t.app, first)).statusCode).toBe(200);
    const res = await register(t.app, {
      ...newAccount(),
      nickname: first.nickname.toUpperCase(),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toEqual(expect.any(String));
    const count = await rows<{ n: string }>(
      sql`SELECT count(*) AS n FROM users WHERE lower(nickname) = lower(${first.nickname})`,
    );
    expect(Number(count[0]?.n)).toBe(1);
  });

  it('lets exactly one of several concurrent registrations of one nickname through', async () => {
    const nickname = uniqueNick('race');
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        register(t.app, { nickname, email: `${nickname}${i}@example.test`, password: PASSWORD }),
      ),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409, 409, 409, 409, 409]);
  });

  it('refuses an e-mail that is already registered with 409', async () => {
    const first = newAccount();
    expect((await register(t.app, first)).statusCode).toBe(200);
    const res = await register(t.app, { ...newAccount(), email: first.email.toUpperCase() });
    expect(res.statusCode).toBe(409);
  });

  it('stores a referrer given by nickname and returns it', async () => {
    const referrer = await registerMember(t.app, 'ref');
    const body = { ...newAccount(), referrer: referrer.nickname.toUpperCase() };
    const res = await register(t.app, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<AuthResponse>().user.referrer).toBe(referrer.nickname);
    const me = await call(t.app, res.json<AuthResponse>().token, 'GET', '/api/user/me');
    expect(me.json<{ user: User }>().user.referrer).toBe(referrer.nickname);
  });

  it('refuses an unknown referrer with 400 and creates nobody', async () => {
    const body = { ...newAccount(), referrer: uniqueNick('ghost') };
    const res = await register(t.app, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('"referrer" contains an invalid value');
    expect(await userExists(body.nickname)).toBe(false);
  });
});

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

  it('logout ends the session on the server', async () => {
    const m = await registerMember(t.app, 'logout');
    const second = (await login(t.app, m.nickname, PASSWORD)).json<AuthResponse>().token;
    const res = await call(t.app, m.token, 'POST', '/api/user/logout');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('You have been logged out');
    for (const token of [m.token, second]) {
      const me = await call(t.app, token, 'GET', '/api/user/me');
      expect(me.statusCode).toBe(401);
      expect(me.json().message).toBe('Not authorized');
    }
    const fresh = await login(t.app, m.nickname, PASSWORD);
    expect(fresh.statusCode).toBe(200);
    expect((await call(t.app, fresh.json<AuthResponse>().token, 'GET', '/api/user/me')).statusCode).toBe(200);
  });
});

describe('updateProfile', () => {
  it('sets and clears isAnonymous (the Private checkbox)', async () => {
    const m = await registerMember(t.app, 'anon');
    const on = await call(t.app, m.token, 'POST', '/api/user/updateProfile', { isAnonymous: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().message).toBe('Your account has been updated');
    expect(on.json<{ user: User }>().user.isAnonymous).toBe(true);
    const me = await call(t.app, m.token, 'GET', '/api/user/me');
    expect(me.json<{ user: User }>().user.isAnonymous).toBe(true);
    const off = await call(t.app, m.token, 'POST', '/api/user/updateProfile', { isAnonymous: false });
    expect(off.statusCode).toBe(200);
    expect(off.json<{ user: User }>().user.isAnonymous).toBe(false);
  });

  it('refuses other fields such as role and changes nothing', async () => {
    const m = await registerMember(t.app, 'sneaky');
    const res = await call(t.app, m.token, 'POST', '/api/user/updateProfile', { isAnonymous: true, role: 'admin' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('"role" is not allowed');
    const user = (await call(t.app, m.token, 'GET', '/api/user/me')).json<{ user: User }>().user;
    expect(user.role).toBe('user');
    expect(user.isAnonymous).toBe(false);
    const fame = await call(t.app, m.token, 'POST', '/api/user/updateProfile', { fame: 100 });
    expect(fame.statusCode).toBe(400);
  });

  it('needs a session', async () => {
    const res = await call(t.app, undefined, 'POST', '/api/user/updateProfile', { isAnonymous: true });
    expect(res.statusCode).toBe(401);
  });
});

describe('rate limits per IP', () => {
  const limited = useTestApp({ RATE_LIMIT_AUTH: '3' });

  it('limits register and login requests per IP (RATE_LIMIT_AUTH)', async () => {
    const ip = '203.0.113.10';
    for (let i = 0; i < 3; i++) {
      const res = await register(limited.app, newAccount('rl'), ip);
      expect(res.statusCode, res.body).toBe(200);
    }
    const fourth = await register(limited.app, newAccount('rl'), ip);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().message).toEqual(expect.any(String));
    // Another address is not affected.
    expect((await register(limited.app, newAccount('rl'), '203.0.113.11')).statusCode).toBe(200);
    // A client cannot pick another address with X-Forwarded-For: it is not a trusted proxy.
    const spoofed = await limited.app.inject({
      method: 'POST',
      url: '/api/user/register',
      remoteAddress: ip,
      headers: { 'x-forwarded-for': '10.9.8.7' },
      payload: newAccount('rl'),
    });
    expect(spoofed.statusCode).toBe(429);
    // Nor from a local address: no proxy is trusted unless TRUST_PROXY names it.
    const local = '127.0.0.2';
    for (let i = 0; i < 3; i++) expect((await register(limited.app, newAccount('rl'), local)).statusCode).toBe(200);
    const fromLoopback = await limited.app.inject({
      method: 'POST',
      url: '/api/user/register',
      remoteAddress: local,
      headers: { 'x-forwarded-for': '10.9.8.6' },
      payload: newAccount('rl'),
    });
    expect(fromLoopback.statusCode).toBe(429);

    const m = await registerMember(limited.app, 'rllogin');
    const loginIp = '203.0.113.12';
    for (let i = 0; i < 3; i++) {
      const res = await login(limited.app, m.nickname, PASSWORD, loginIp);
      expect(res.statusCode, res.body).toBe(200);
    }
    const blocked = await login(limited.app, m.nickname, PASSWORD, loginIp);
    expect(blocked.statusCode).toBe(429);
    expect((await login(limited.app, m.nickname, PASSWORD, '203.0.113.13')).statusCode).toBe(200);
  });
});

describe('rate limits per account', () => {
  const limited = useTestApp({ RATE_LIMIT_LOGIN_FAILURES: '3' });

  it('limits failed sign-ins per account and address (RATE_LIMIT_LOGIN_FAILURES), whatever identifier is used', async () => {
    const m = await registerMember(limited.app, 'lock');
    const other = await registerMember(limited.app, 'free');
    const stranger = '198.51.100.20';
    expect((await login(limited.app, m.nickname, 'Wr0ng!Password', stranger)).statusCode).toBe(401);
    expect((await login(limited.app, m.nickname.toUpperCase(), 'Wr0ng!Password', stranger)).statusCode).toBe(401);
    expect((await login(limited.app, m.email, 'Wr0ng!Password', stranger)).statusCode).toBe(401);
    // From that address the account is now locked, even with the right password, by nickname or e-mail.
    expect((await login(limited.app, m.nickname, PASSWORD, stranger)).statusCode).toBe(429);
    expect((await login(limited.app, m.email, PASSWORD, stranger)).statusCode).toBe(429);
    // The owner, from their own address, is not locked out by a stranger's guesses.
    expect((await login(limited.app, m.nickname, PASSWORD, '198.51.100.21')).statusCode).toBe(200);
    // Other accounts are not locked either.
    expect((await login(limited.app, other.nickname, PASSWORD, stranger)).statusCode).toBe(200);
  });

  it('limits failed sign-ins per address across accounts (5x the per-account limit)', async () => {
    const guesser = '198.51.100.30';
    const victims = await Promise.all([1, 2, 3, 4, 5, 6].map(() => registerMember(limited.app, 'many')));
    let refused = 0;
    for (const v of victims) {
      for (let i = 0; i < 3; i++) {
        const res = await login(limited.app, v.nickname, 'Wr0ng!Password', guesser);
        if (res.statusCode === 429) refused++;
      }
    }
    // 15 failures are counted, then the address is refused whatever the account.
    expect(refused).toBe(3);
    expect((await login(limited.app, victims[5]?.nickname ?? '', PASSWORD, guesser)).statusCode).toBe(429);
    expect((await login(limited.app, victims[5]?.nickname ?? '', PASSWORD, '198.51.100.31')).statusCode).toBe(200);
  });

  it('forgets failures after a successful sign-in', async () => {
    const m = await registerMember(limited.app, 'reset');
    for (let round = 0; round < 2; round++) {
      expect((await login(limited.app, m.nickname, 'Wr0ng!Password')).statusCode).toBe(401);
      expect((await login(limited.app, m.nickname, 'Wr0ng!Password')).statusCode).toBe(401);
      expect((await login(limited.app, m.nickname, PASSWORD)).statusCode).toBe(200);
    }
  });
});
