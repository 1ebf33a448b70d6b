/**
 * Fixes from an outside attacker's report on accounts: sign-in guesses spread over addresses are throttled
 * per account (ASVS 6.3.1, DESIGN §8) without locking out the owner; a password or e-mail change retires
 * outstanding mail links; mails are limited per recipient; `Anonymous` and system accounts' nicknames are
 * reserved.
 */
import { MESSAGES, type UpdateProfileResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newObjectId } from '../src/lib/ids.ts';
import { FORGOT_PASSWORD_MESSAGE } from '../src/modules/users/email.service.ts';
import { SIGN_IN_LINK_MESSAGE } from '../src/modules/users/users.service.ts';
import {
  call,
  type Member,
  makeApp,
  PASSWORD,
  registerMember,
  sessionTokenFor,
  uniqueNick,
  useTestApp,
} from './helpers.ts';
import { type MailCatcher, startMailCatcher } from './mail-catcher.ts';

const NEW_PASSWORD = 'An0ther!Passw0rd';
const WRONG_PASSWORD = 'Wr0ng!Password';
const THROTTLED = SIGN_IN_LINK_MESSAGE;

let catcher: MailCatcher;
beforeAll(async () => {
  catcher = await startMailCatcher();
});
afterAll(async () => {
  await catcher?.close();
});

/** The app with the default per-account limits (the test config lifts the per-address ones). */
const t = useTestApp(
  {},
  {
    build: () =>
      makeApp({
        SMTP_URL: catcher.url,
        PUBLIC_URL: 'https://starlight.example',
        RATE_LIMIT_LOGIN_FAILURES: '10',
        RATE_LIMIT_ACCOUNT_FAILURES: '20',
      }),
  },
);

function login(app: FastifyInstance, nickOrEmail: string, password: string, remoteAddress: string) {
  return app.inject({ method: 'POST', url: '/api/user/login', payload: { nickOrEmail, password }, remoteAddress });
}

function post(url: string, payload: Record<string, unknown>, token?: string, remoteAddress?: string) {
  return t.app.inject({
    method: 'POST',
    url,
    payload,
    ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

/** The token at the end of a mailed link. */
function tokenOf(link: string | null): string {
  const token = link?.split('/').pop();
  if (!token) throw new Error(`no token in ${link}`);
  return token;
}

/** A documentation address (RFC 5737 / 2544 ranges), distinct for each `i` below 65536. */
function addressOf(block: number, i: number): string {
  return `198.${block}.${Math.floor(i / 256)}.${i % 256}`;
}

/** Mails caught so far to `to`. */
function mailsTo(to: string): number {
  return catcher.mails.filter((m) => m.to.includes(to)).length;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('sign-in guesses spread over addresses (ASVS 6.3.1)', () => {
  it('throttles 101 failures from 101 addresses: at most 20 passwords are checked, then 429', async () => {
    const m = await registerMember(t.app, 'spread');
    const statuses: number[] = [];
    for (let i = 0; i < 101; i++) {
      statuses.push((await login(t.app, m.nickname, WRONG_PASSWORD, addressOf(18, i))).statusCode);
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(81);
    // The right password from yet another address is refused too, unchecked, with the same answer.
    const fresh = await login(t.app, m.nickname, PASSWORD, addressOf(18, 500));
    expect(fresh.statusCode).toBe(429);
    expect(fresh.json().message).toBe(THROTTLED);
    // By e-mail as by nickname: the limit is the account's.
    expect((await login(t.app, m.email, PASSWORD, addressOf(18, 501))).statusCode).toBe(429);
  });

  it('checks at most 20 passwords when the guesses arrive at once', async () => {
    const m = await registerMember(t.app, 'burst');
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => login(t.app, m.nickname, WRONG_PASSWORD, addressOf(19, i))),
    );
    expect(answers.filter((r) => r.statusCode === 401)).toHaveLength(20);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(40);
  });

  it("does not lock the owner out: an address that signed in before still signs in after a stranger's flood", async () => {
    const m = await registerMember(t.app, 'owner');
    const home = '192.0.2.10';
    expect((await login(t.app, m.nickname, PASSWORD, home)).statusCode).toBe(200);
    for (let i = 0; i < 40; i++) await login(t.app, m.nickname, WRONG_PASSWORD, addressOf(18, 1000 + i));
    expect((await login(t.app, m.nickname, PASSWORD, addressOf(18, 2000))).statusCode).toBe(429);
    // The owner at home: their typo counts only against their own address, and the right password works.
    expect((await login(t.app, m.nickname, WRONG_PASSWORD, home)).statusCode).toBe(401);
    expect((await login(t.app, m.nickname, PASSWORD, home)).statusCode).toBe(200);
    // Ten failures from one stranger's address lock that address only, never the owner's.
    const stranger = '192.0.2.66';
    const other = await registerMember(t.app, 'victim');
    expect((await login(t.app, other.nickname, PASSWORD, home)).statusCode).toBe(200);
    for (let i = 0; i < 10; i++) await login(t.app, other.nickname, WRONG_PASSWORD, stranger);
    expect((await login(t.app, other.nickname, PASSWORD, stranger)).statusCode).toBe(429);
    expect((await login(t.app, other.nickname, PASSWORD, home)).statusCode).toBe(200);
  });

  it('lets the owner back in from a new address once they reset the password from it', async () => {
    const m = await registerMember(t.app, 'newdev');
    for (let i = 0; i < 25; i++) await login(t.app, m.nickname, WRONG_PASSWORD, addressOf(18, 3000 + i));
    const laptop = '192.0.2.20';
    expect((await login(t.app, m.nickname, PASSWORD, laptop)).statusCode).toBe(429);
    // That right password mailed a sign-in link (users.sign-in-link.test.ts); a reset works as well.
    expect((await catcher.next(m.email)).subject).toBe('Your Starlight sign-in link');
    await post('/api/user/forgotPassword', { email: m.email }, undefined, laptop);
    const token = tokenOf((await catcher.next(m.email)).link);
    const reset = await post('/api/user/resetPassword', { token, password: NEW_PASSWORD }, undefined, laptop);
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await login(t.app, m.nickname, NEW_PASSWORD, laptop)).statusCode).toBe(200);
    // Still throttled elsewhere.
    expect((await login(t.app, m.nickname, NEW_PASSWORD, addressOf(18, 3100))).statusCode).toBe(429);
  });
});

describe('two replicas sharing Redis', () => {
  const redisApp = () =>
    makeApp({
      SMTP_URL: catcher.url,
      REDIS_URL: 'redis://127.0.0.1:6379',
      RATE_LIMIT_LOGIN_FAILURES: '10',
      RATE_LIMIT_ACCOUNT_FAILURES: '20',
    });
  const a = useTestApp({}, { build: redisApp });
  const b = useTestApp({}, { build: redisApp });

  it('share the per-account sign-in limit and the per-recipient mail limit', async () => {
    const m = await registerMember(a.app, 'redis');
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        login(i % 2 ? a.app : b.app, m.nickname, WRONG_PASSWORD, addressOf(19, 1000 + i)),
      ),
    );
    expect(answers.filter((r) => r.statusCode === 401)).toHaveLength(20);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(40);
    // The address it registered from is known on both.
    expect(
      (
        await b.app.inject({
          method: 'POST',
          url: '/api/user/login',
          payload: { nickOrEmail: m.nickname, password: PASSWORD },
        })
      ).statusCode,
    ).toBe(200);

    for (let i = 0; i < 10; i++) {
      const res = await (i % 2 ? a.app : b.app).inject({
        method: 'POST',
        url: '/api/user/forgotPassword',
        payload: { email: m.email },
      });
      expect(res.json()).toEqual({ message: FORGOT_PASSWORD_MESSAGE });
    }
    for (let i = 0; i < 3; i++) await catcher.next(m.email);
    await sleep(500);
    expect(mailsTo(m.email)).toBe(3);
  });
});

describe('a password or e-mail change retires outstanding mail links', () => {
  it('a reset link asked before a password change no longer works; the new password does', async () => {
    const m = await registerMember(t.app, 'pwchg');
    await post('/api/user/forgotPassword', { email: m.email });
    const token = tokenOf((await catcher.next(m.email)).link);
    const changed = await post(
      '/api/user/updateProfile',
      { password: NEW_PASSWORD, currentPassword: PASSWORD },
      m.token,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    const res = await post('/api/user/resetPassword', { token, password: 'Att4cker!Passw0rd' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(MESSAGES.invalidLink);
    expect((await login(t.app, m.nickname, NEW_PASSWORD, '192.0.2.30')).statusCode).toBe(200);
  });

  it('an e-mail change retires reset links and verification links sent to the old address', async () => {
    const m = await registerMember(t.app, 'mlchg');
    await post('/api/user/forgotPassword', { email: m.email });
    const reset = tokenOf((await catcher.next(m.email)).link);
    await post('/api/user/sendVerificationEmail', {}, m.token);
    const verify = tokenOf((await catcher.next(m.email)).link);
    const changed = await post(
      '/api/user/updateProfile',
      { email: `new.${m.email}`, currentPassword: PASSWORD },
      m.token,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    const resetAnswer = await post('/api/user/resetPassword', { token: reset, password: NEW_PASSWORD });
    expect(resetAnswer.statusCode).toBe(400);
    expect(resetAnswer.json().message).toBe(MESSAGES.invalidLink);
    const verifyAnswer = await post('/api/user/verifyEmail', { token: verify });
    expect(verifyAnswer.statusCode).toBe(400);
    expect(verifyAnswer.json().message).toBe(MESSAGES.invalidLink);
    expect((await login(t.app, m.nickname, PASSWORD, '192.0.2.31')).statusCode).toBe(200);
  });
});

describe('mails per recipient', () => {
  it('forgotPassword: 30 requests for one address send at most 3 mails, with 30 identical answers', async () => {
    const m = await registerMember(t.app, 'flood');
    const answers = [];
    for (let i = 0; i < 30; i++) answers.push(await post('/api/user/forgotPassword', { email: m.email }));
    for (const a of answers) {
      expect(a.statusCode).toBe(200);
      expect(a.json()).toEqual({ message: FORGOT_PASSWORD_MESSAGE });
    }
    for (let i = 0; i < 3; i++) await catcher.next(m.email);
    await sleep(500);
    expect(mailsTo(m.email)).toBe(3);
  });

  it('sendVerificationEmail: 30 requests send at most 3 mails, with 30 identical answers', async () => {
    const m = await registerMember(t.app, 'vflood');
    const answers = [];
    for (let i = 0; i < 30; i++) answers.push(await post('/api/user/sendVerificationEmail', {}, m.token));
    for (const a of answers) {
      expect(a.statusCode).toBe(200);
      expect(a.json()).toEqual({ message: `We have sent a verification link to ${m.email}` });
    }
    for (let i = 0; i < 3; i++) expect((await catcher.next(m.email)).subject).toBe('Verify your Starlight e-mail');
    await sleep(500);
    expect(mailsTo(m.email)).toBe(3);
    // A reset mail has its own budget: the verification flood does not stop it.
    await post('/api/user/forgotPassword', { email: m.email });
    expect((await catcher.next(m.email)).subject).toBe('Reset your Starlight password');
  });
});

describe('reserved nicknames', () => {
  const reserved = ['Anonymous', 'anonymous', 'ANONYMOUS', 'aNoNyMoUs', 'synthsale', 'SynthSale'];

  // A member who took `Anonymous` before it was reserved (an earlier run without the fix) is renamed, so
  // each case meets a free nickname and only the reservation can refuse it.
  beforeEach(async () => {
    await t.built.database.db.execute(
      sql`UPDATE users SET nickname = 'was' || id WHERE lower(nickname) = 'anonymous' AND NOT is_system`,
    );
  });

  /** A wallet-only account (no e-mail, no password) made in the database, signed in. */
  async function walletOnlyMember(): Promise<Member> {
    const id = newObjectId();
    const nickname = uniqueNick('w');
    const wallet = `0x${id}${id.slice(0, 16)}`;
    await t.built.database.db.execute(
      sql`INSERT INTO users (id, nickname, is_wallet_only, primary_wallet) VALUES (${id}, ${nickname}, true, ${wallet})`,
    );
    const token = await sessionTokenFor(t.built, { id });
    return { id, nickname, email: '', token };
  }

  it.each(reserved)('register refuses %s with 409 Nickname already taken and creates nobody', async (nickname) => {
    const email = `${uniqueNick('res')}@example.test`;
    const res = await post('/api/user/register', { nickname, email, password: PASSWORD });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Nickname already taken');
    const found = await t.built.database.db.execute(sql`SELECT 1 FROM users WHERE email = ${email}`);
    expect(found.rows).toHaveLength(0);
  });

  it.each(reserved)('updateProfile refuses %s with 409 and keeps the old nickname', async (nickname) => {
    const m = await registerMember(t.app, 'keep');
    const res = await post('/api/user/updateProfile', { nickname }, m.token);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Nickname already taken');
    const me = await call(t.app, m.token, 'GET', '/api/user/me');
    expect(me.json<UpdateProfileResponse>().user.nickname).toBe(m.nickname);
  });

  it.each(reserved)('a wallet account cannot take %s either', async (nickname) => {
    const w = await walletOnlyMember();
    const res = await post('/api/user/updateProfile', { nickname }, w.token);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Nickname already taken');
  });

  it('still accepts nicknames that merely contain the word', async () => {
    const m = await registerMember(t.app, 'word');
    const nickname = uniqueNick('anonymous').slice(0, 20);
    const res = await post('/api/user/updateProfile', { nickname }, m.token);
    expect(res.statusCode, res.body).toBe(200);
  });
});
