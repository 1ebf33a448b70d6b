/**
 * Registration (SPEC §5, §7 register): the account created and signed in without secrets in the answer,
 * every field's rules and messages, the e-mail lowercased, unknown fields refused, a nickname or e-mail
 * taken (in any case, or by a concurrent registration) refused, and the referrer. Sign-in and sessions:
 * users.login.test.ts; rate limits: users.rate-limits.test.ts.
 */
import type { AuthResponse, User } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, PASSWORD, registerMember, uniqueNick, useTestApp } from './helpers.ts';
import { login, newAccount, register, userRows } from './users.helpers.ts';

const t = useTestApp();
const { rows, userExists } = userRows(t);

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
