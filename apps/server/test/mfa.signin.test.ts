/**
 * Sign-in with a second factor (DESIGN §11.1): for an account with TOTP on, `login` and `loginWallet`
 * answer `{mfaRequired, mfaToken}` and no session; `login/mfa` answers as `login` would with a code or a
 * recovery code (a session marked `secondFactor`, or a creator app's URL). The token is single use, lives
 * 5 minutes and dies after 5 wrong codes; a dead token is 401.
 */

import { randomBytes } from 'node:crypto';
import { type AuthResponse, MESSAGES, type MfaRequiredResponse, type SessionsResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CreatorApp, cappCalls } from './capp.helpers.ts';
import { call, type Member, PASSWORD, registerMember, useTestApp } from './helpers.ts';
import { codeAt, enrol, wrongCode } from './mfa.helpers.ts';
import { newWallet, PUBLIC_URL, walletCalls } from './users.wallet.helpers.ts';

const t = useTestApp({ PUBLIC_URL });
const { signedBody, registerWallet } = walletCalls(t);
let creatorApp: CreatorApp;
const capp = cappCalls(t, () => creatorApp);

beforeAll(async () => {
  creatorApp = await capp.makeCreator('mfacapp');
});

function login(m: Member, extra: Record<string, unknown> = {}) {
  return call(t.app, undefined, 'POST', '/api/user/login', { nickOrEmail: m.nickname, password: PASSWORD, ...extra });
}

function loginMfa(body: Record<string, unknown>) {
  return call(t.app, undefined, 'POST', '/api/user/login/mfa', body);
}

/** Signs in with the password and expects the second-factor step: its token. */
async function challenge(m: Member, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await login(m, extra);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<MfaRequiredResponse & { token?: string }>();
  expect(body.mfaRequired).toBe(true);
  expect(body.token).toBeUndefined();
  expect(body.mfaToken.length).toBeGreaterThanOrEqual(40);
  return body.mfaToken;
}

async function sessionCount(userId: string): Promise<number> {
  const res = await t.built.database.db.execute(
    sql`SELECT count(*)::int AS n FROM user_sessions WHERE user_id = ${userId}`,
  );
  return Number((res.rows[0] as { n: number }).n);
}

describe('login with TOTP on', () => {
  it('asks for a code and opens no session; a right code opens one marked as second factor', async () => {
    const m = await registerMember(t.app, 'mfain');
    const { secret } = await enrol(t.app, m.token);
    const before = await sessionCount(m.id);
    const logsBefore = (await capp.accessLogTypes(m.id)).length;
    const mfaToken = await challenge(m);
    expect(await sessionCount(m.id)).toBe(before);
    const res = await loginMfa({ mfaToken, code: await codeAt(secret) });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<AuthResponse>();
    expect(body.user).toMatchObject({ nickname: m.nickname, mfa: { totp: true, passkeys: 0 } });
    expect(body.message).toBe(`Welcome back, ${m.nickname}`);
    const sessions = await call(t.app, body.token, 'GET', '/api/user/sessions');
    const current = sessions.json<SessionsResponse>().sessions.find((s) => s.current);
    expect(current?.secondFactor).toBe(true);
    expect((await capp.accessLogTypes(m.id)).slice(logsBefore)).toEqual([1]);
    // Single use: the same token again is 401, even with a fresh code.
    const again = await loginMfa({ mfaToken, code: await codeAt(secret, 1) });
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toBe(MESSAGES.mfaTokenInvalid);
  });

  it('takes a recovery code, once', async () => {
    const m = await registerMember(t.app, 'mfain');
    const { recoveryCodes } = await enrol(t.app, m.token);
    const code = recoveryCodes[0] as string;
    const ok = await loginMfa({ mfaToken: await challenge(m), code });
    expect(ok.statusCode, ok.body).toBe(200);
    const reused = await loginMfa({ mfaToken: await challenge(m), code });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().message).toBe('Invalid code');
  });

  it('kills the token after 5 wrong codes', async () => {
    const m = await registerMember(t.app, 'mfain');
    const { secret } = await enrol(t.app, m.token);
    const mfaToken = await challenge(m);
    const wrong = await wrongCode(secret);
    for (let i = 0; i < 5; i++) {
      const res = await loginMfa({ mfaToken, code: wrong });
      expect(res.statusCode, `attempt ${i + 1}`).toBe(400);
      expect(res.json().message).toBe('Invalid code');
    }
    const dead = await loginMfa({ mfaToken, code: await codeAt(secret) });
    expect(dead.statusCode).toBe(401);
    expect(dead.json().message).toBe(MESSAGES.mfaTokenInvalid);
    // The right code was not used up by the dead token: a new sign-in takes it.
    const fresh = await loginMfa({ mfaToken: await challenge(m), code: await codeAt(secret) });
    expect(fresh.statusCode, fresh.body).toBe(200);
  });

  it('refuses an expired token and an unknown one with 401', async () => {
    const m = await registerMember(t.app, 'mfain');
    const { secret } = await enrol(t.app, m.token);
    const mfaToken = await challenge(m);
    const row = await t.built.database.db.execute(
      sql`SELECT extract(epoch FROM expires_at - created_at)::float8 AS ttl FROM mfa_tokens WHERE user_id = ${m.id}`,
    );
    expect(Math.abs(Number((row.rows[0] as { ttl: number }).ttl) - 300)).toBeLessThan(2);
    await t.built.database.db.execute(
      sql`UPDATE mfa_tokens SET expires_at = now() - interval '1 second' WHERE user_id = ${m.id}`,
    );
    const expired = await loginMfa({ mfaToken, code: await codeAt(secret) });
    expect(expired.statusCode).toBe(401);
    const unknown = await loginMfa({ mfaToken: 'x'.repeat(43), code: await codeAt(secret) });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().message).toBe(MESSAGES.mfaTokenInvalid);
  });

  it('still refuses a wrong password with 401, with no token', async () => {
    const m = await registerMember(t.app, 'mfain');
    await enrol(t.app, m.token);
    const bad = await call(t.app, undefined, 'POST', '/api/user/login', { nickOrEmail: m.nickname, password: 'nope' });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().mfaToken).toBeUndefined();
  });

  it('signs in without a code once TOTP is off again', async () => {
    const m = await registerMember(t.app, 'mfain');
    const { secret } = await enrol(t.app, m.token);
    const off = await call(t.app, m.token, 'POST', '/api/user/mfa/totp/disable', { code: await codeAt(secret) });
    expect(off.statusCode).toBe(200);
    const res = await login(m);
    expect(res.statusCode).toBe(200);
    expect(res.json<AuthResponse>().token).toEqual(expect.any(String));
  });
});

describe('a mailed sign-in link with TOTP on', () => {
  it('stands for the password only: the code step follows, then the session', async () => {
    const m = await registerMember(t.app, 'mfain');
    const { secret } = await enrol(t.app, m.token);
    const { insertMailToken } = await import('../src/modules/users/email.queries.ts');
    const { hashMailToken } = await import('../src/lib/mailer.ts');
    const token = randomBytes(120).toString('base64url').slice(0, 160);
    await insertMailToken(t.built.database.db, {
      tokenHash: hashMailToken(token),
      userId: m.id,
      purpose: 'signin',
      email: m.email,
      expiresAt: new Date(Date.now() + 60_000),
    });
    const res = await call(t.app, undefined, 'POST', '/api/user/loginLink', { token });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<MfaRequiredResponse & { token?: string }>();
    expect(body.mfaRequired).toBe(true);
    expect(body.token).toBeUndefined();
    const done = await loginMfa({ mfaToken: body.mfaToken, code: await codeAt(secret) });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json<AuthResponse>().token).toEqual(expect.any(String));
  });
});

describe('loginWallet with TOTP on', () => {
  it('asks for a code after the signature; login/mfa opens the session (access log type 2)', async () => {
    const account = newWallet();
    const reg = await registerWallet(account);
    const { secret } = await enrol(t.app, reg.token);
    const { message: _text, ...signed } = await signedBody(account);
    const res = await call(t.app, undefined, 'POST', '/api/user/loginWallet', signed);
    expect(res.statusCode, res.body).toBe(200);
    const { mfaRequired, mfaToken } = res.json<MfaRequiredResponse>();
    expect(mfaRequired).toBe(true);
    const before = await capp.accessLogTypes(reg.user._id);
    const done = await loginMfa({ mfaToken, code: await codeAt(secret) });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json<AuthResponse>().user.primaryWallet).toBe(account.address.toLowerCase());
    expect((await capp.accessLogTypes(reg.user._id)).slice(before.length)).toEqual([2]);
  });
});

describe('a creator app sign-in with TOTP on', () => {
  it('asks for a code before consent, then answers the app URL with its code (access log type 3)', async () => {
    const m = await registerMember(t.app, 'mfain');
    const { secret } = await enrol(t.app, m.token);
    const id = await capp.requestId();
    const mfaToken = await challenge(m, { cAppAuthRequest: id });
    const res = await loginMfa({ mfaToken, code: await codeAt(secret), cAppAuthRequest: id });
    expect(res.statusCode, res.body).toBe(200);
    const url = new URL(res.json<{ url: string }>().url);
    expect(url.searchParams.get('code')).toEqual(expect.any(String));
    expect(await capp.accessLogTypes(m.id)).toContain(3);
  });

  it('remembers the request of the sign-in when login/mfa does not repeat it', async () => {
    const m = await registerMember(t.app, 'mfain');
    const { secret } = await enrol(t.app, m.token);
    const id = await capp.requestId();
    const res = await loginMfa({ mfaToken: await challenge(m, { cAppAuthRequest: id }), code: await codeAt(secret) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ url: string }>().url).toContain('code=');
  });
});

describe('pruning', () => {
  it('deletes challenges expired over a day ago', async () => {
    const m = await registerMember(t.app, 'mfain');
    await enrol(t.app, m.token);
    await challenge(m);
    await t.built.database.db.execute(
      sql`UPDATE mfa_tokens SET expires_at = now() - interval '2 days' WHERE user_id = ${m.id}`,
    );
    const { pruneExpired } = await import('../src/modules/mfa/signin.service.ts');
    await pruneExpired(t.built.database.db);
    const left = await t.built.database.db.execute(sql`SELECT 1 FROM mfa_tokens WHERE user_id = ${m.id}`);
    expect(left.rows).toEqual([]);
  });
});
