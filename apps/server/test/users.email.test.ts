/**
 * E-mail verification and password reset: mails read through a real SMTP server and
 * through the `.eml` outbox, links followed, tokens single use and expiring, no account oracle.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AuthResponse, User } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORGOT_PASSWORD_MESSAGE } from '../src/modules/users/email.service.ts';
import { call, makeApp, PASSWORD, registerMember, useTestApp } from './helpers.ts';
import { type MailCatcher, readOutbox, startMailCatcher } from './mail-catcher.ts';

const NEW_PASSWORD = 'N3w!Passw0rd-x';

let catcher: MailCatcher;
beforeAll(async () => {
  catcher = await startMailCatcher();
});
afterAll(async () => {
  await catcher?.close();
});

const t = useTestApp({}, { build: () => makeApp({ SMTP_URL: catcher.url, PUBLIC_URL: 'https://starlight.example' }) });

/** The token at the end of a mailed link. */
function tokenOf(link: string | null): string {
  const token = link?.split('/').pop();
  if (!token) throw new Error(`no token in ${link}`);
  return token;
}

function post(url: string, payload: Record<string, unknown>, token?: string) {
  return t.app.inject({
    method: 'POST',
    url,
    payload,
    ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
  });
}

async function me(token: string): Promise<User> {
  const res = await call(t.app, token, 'GET', '/api/user/me');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ user: User }>().user;
}

function login(nickOrEmail: string, password: string) {
  return post('/api/user/login', { nickOrEmail, password });
}

describe('sendVerificationEmail and verifyEmail', () => {
  it('mails a link (plain and HTML) that verifies the e-mail once', async () => {
    const m = await registerMember(t.app, 'ver');
    expect((await me(m.token)).isEmailVerified).toBe(false);

    const sent = await post('/api/user/sendVerificationEmail', {}, m.token);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ message: `We have sent a verification link to ${m.email}` });
    const mail = await catcher.next(m.email);
    expect(mail.subject).toBe('Verify your Starlight e-mail');
    expect(mail.link).toMatch(/^https:\/\/starlight\.example\/verifyemail\/[A-Za-z0-9_-]{150,255}$/);
    expect(mail.text).toContain('expires in 24 hours');
    expect(mail.html).toContain(`href="${mail.link}"`);
    expect(sent.body).not.toContain(tokenOf(mail.link));

    const verified = await post('/api/user/verifyEmail', { token: tokenOf(mail.link) });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toEqual({ message: 'Your e-mail is verified' });
    expect((await me(m.token)).isEmailVerified).toBe(true);

    const again = await post('/api/user/verifyEmail', { token: tokenOf(mail.link) });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('This link is invalid or has expired');
  });

  it('stores only a hash of the token', async () => {
    const m = await registerMember(t.app, 'hsh');
    await post('/api/user/sendVerificationEmail', { email: m.email }, m.token);
    const token = tokenOf((await catcher.next(m.email)).link);
    const res = await t.built.database.db.execute(sql`SELECT * FROM mail_tokens WHERE user_id = ${m.id}`);
    expect(res.rows).toHaveLength(1);
    expect(JSON.stringify(res.rows)).not.toContain(token);
  });

  it('refuses an expired token and leaves the e-mail unverified', async () => {
    const m = await registerMember(t.app, 'exp');
    await post('/api/user/sendVerificationEmail', {}, m.token);
    const token = tokenOf((await catcher.next(m.email)).link);
    await t.built.database.db.execute(
      sql`UPDATE mail_tokens SET expires_at = now() - interval '1 second' WHERE user_id = ${m.id}`,
    );
    const res = await post('/api/user/verifyEmail', { token });
    expect(res.statusCode).toBe(400);
    expect((await me(m.token)).isEmailVerified).toBe(false);
  });

  it('refuses a link when the e-mail changed since it was sent (the change retired it)', async () => {
    const m = await registerMember(t.app, 'chg');
    await post('/api/user/sendVerificationEmail', {}, m.token);
    const token = tokenOf((await catcher.next(m.email)).link);
    const changed = await post(
      '/api/user/updateProfile',
      { email: `other.${m.email}`, currentPassword: PASSWORD },
      m.token,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    const res = await post('/api/user/verifyEmail', { token });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('This link is invalid or has expired');
    expect((await me(m.token)).isEmailVerified).toBe(false);
  });

  it.each([
    ['a token of the wrong length', { token: 'x'.repeat(20) }, '"token" contains an invalid value'],
    ['an unknown token', { token: 'a'.repeat(192) }, 'This link is invalid or has expired'],
    ['no token', {}, '"token" is required'],
  ])('answers 400 for %s', async (_name, body, message) => {
    const res = await post('/api/user/verifyEmail', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('refuses another address than the account one, and an already verified e-mail', async () => {
    const m = await registerMember(t.app, 'oth');
    const other = await post('/api/user/sendVerificationEmail', { email: 'someone@else.test' }, m.token);
    expect(other.statusCode).toBe(400);
    await post('/api/user/sendVerificationEmail', {}, m.token);
    await post('/api/user/verifyEmail', { token: tokenOf((await catcher.next(m.email)).link) });
    const twice = await post('/api/user/sendVerificationEmail', {}, m.token);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('Your e-mail is already verified');
  });

  it('needs a session', async () => {
    const res = await post('/api/user/sendVerificationEmail', {});
    expect(res.statusCode).toBe(401);
  });
});

describe('forgotPassword and resetPassword', () => {
  it('mails a reset link; the new password works, the old one and every session end', async () => {
    const m = await registerMember(t.app, 'rst');
    const second = (await login(m.nickname, PASSWORD)).json<AuthResponse>().token;

    const asked = await post('/api/user/forgotPassword', { email: m.email.toUpperCase() });
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toEqual({ message: FORGOT_PASSWORD_MESSAGE });
    const mail = await catcher.next(m.email);
    expect(mail.subject).toBe('Reset your Starlight password');
    expect(mail.link).toMatch(/^https:\/\/starlight\.example\/resetpassword\/[A-Za-z0-9_-]{150,255}$/);
    expect(mail.text).toContain('expires in 1 hour');

    const reset = await post('/api/user/resetPassword', { token: tokenOf(mail.link), password: NEW_PASSWORD });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.body).not.toContain('token');

    for (const token of [m.token, second]) {
      expect((await call(t.app, token, 'GET', '/api/user/me')).statusCode).toBe(401);
    }
    expect((await login(m.nickname, PASSWORD)).statusCode).toBe(401);
    expect((await login(m.nickname, NEW_PASSWORD)).statusCode).toBe(200);

    const replay = await post('/api/user/resetPassword', { token: tokenOf(mail.link), password: PASSWORD });
    expect(replay.statusCode).toBe(400);
    expect((await login(m.nickname, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('gives no account oracle: the same status and body for a known and an unknown address', async () => {
    const m = await registerMember(t.app, 'orc');
    const known = await post('/api/user/forgotPassword', { email: m.email });
    const unknown = await post('/api/user/forgotPassword', { email: `nobody.${m.email}` });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    await catcher.next(m.email);
    expect(catcher.mails.some((mail) => mail.to.includes(`nobody.${m.email}`))).toBe(false);
  });

  it('refuses an expired reset token and keeps the password', async () => {
    const m = await registerMember(t.app, 'rex');
    await post('/api/user/forgotPassword', { email: m.email });
    const token = tokenOf((await catcher.next(m.email)).link);
    await t.built.database.db.execute(
      sql`UPDATE mail_tokens SET expires_at = now() - interval '1 second' WHERE user_id = ${m.id}`,
    );
    const res = await post('/api/user/resetPassword', { token, password: NEW_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect((await login(m.nickname, PASSWORD)).statusCode).toBe(200);
  });

  it('a reset makes the other reset links void, and a verify token cannot reset', async () => {
    const m = await registerMember(t.app, 'two');
    await post('/api/user/forgotPassword', { email: m.email });
    await post('/api/user/forgotPassword', { email: m.email });
    const first = tokenOf((await catcher.next(m.email)).link);
    const second = tokenOf((await catcher.next(m.email)).link);
    await post('/api/user/sendVerificationEmail', {}, m.token);
    const verify = tokenOf((await catcher.next(m.email)).link);

    expect((await post('/api/user/resetPassword', { token: verify, password: NEW_PASSWORD })).statusCode).toBe(400);
    expect((await post('/api/user/resetPassword', { token: first, password: NEW_PASSWORD })).statusCode).toBe(200);
    expect((await post('/api/user/resetPassword', { token: second, password: PASSWORD })).statusCode).toBe(400);
    expect((await login(m.nickname, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a weak password with SPEC’s message and changes nothing', async () => {
    const m = await registerMember(t.app, 'wk');
    await post('/api/user/forgotPassword', { email: m.email });
    const token = tokenOf((await catcher.next(m.email)).link);
    const res = await post('/api/user/resetPassword', { token, password: 'weak' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Password not strong enough');
    expect((await post('/api/user/resetPassword', { token, password: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it('verify and reset tokens are not sessions', async () => {
    const m = await registerMember(t.app, 'ses');
    await post('/api/user/forgotPassword', { email: m.email });
    const reset = tokenOf((await catcher.next(m.email)).link);
    await post('/api/user/sendVerificationEmail', {}, m.token);
    const verify = tokenOf((await catcher.next(m.email)).link);
    for (const token of [reset, verify]) {
      const res = await call(t.app, token, 'GET', '/api/user/me');
      expect(res.statusCode).toBe(401);
    }
  });
});

describe('without SMTP_URL', () => {
  let dataDir: string;
  const outbox = useTestApp(
    {},
    {
      build: async () => {
        dataDir = await mkdtemp(path.join(tmpdir(), 'starlight-outbox-'));
        return makeApp({ DATA_DIR: dataDir });
      },
    },
  );
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('writes each mail as an .eml file under DATA_DIR/outbox whose link works', async () => {
    const m = await registerMember(outbox.app, 'box');
    const res = await outbox.app.inject({
      method: 'POST',
      url: '/api/user/sendVerificationEmail',
      headers: { authorization: `Bearer ${m.token}` },
      payload: {},
    });
    expect(res.statusCode, res.body).toBe(200);
    const mails = await readOutbox(path.join(dataDir, 'outbox'));
    const mail = mails.find((x) => x.to.includes(m.email));
    expect(mail?.subject).toBe('Verify your Starlight e-mail');
    expect(mail?.link).toMatch(/^http:\/\/localhost:\d+\/verifyemail\//);
    const verified = await outbox.app.inject({
      method: 'POST',
      url: '/api/user/verifyEmail',
      payload: { token: tokenOf(mail?.link ?? null) },
    });
    expect(verified.statusCode, verified.body).toBe(200);
  });
});
