/**
 * The sign-in limits never leave the owner at a dead end (DESIGN §8): once strangers spend an account's
 * budget, or fail from the owner's own address, the right password gets a mailed single-use sign-in link
 * with the same answer a wrong one gets. Every re-check of a password (`updateProfile`'s
 * `currentPassword`) spends the same per-account budget and is refused once it is spent. A link is kept
 * in PostgreSQL, so one replica mails it and another consumes it, once.
 */
import { type AuthResponse, MESSAGES } from '@starlight/shared';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECHECKS_THROTTLED_MESSAGE, SIGN_IN_LINK_MESSAGE } from '../src/modules/users/users.service.ts';
import { call, makeApp, PASSWORD, registerMember, useTestApp } from './helpers.ts';
import { type MailCatcher, startMailCatcher } from './mail-catcher.ts';

const WRONG_PASSWORD = 'Wr0ng!Password';
const NEW_PASSWORD = 'An0ther!Passw0rd';

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

function loginLink(token: string, remoteAddress: string) {
  return t.app.inject({ method: 'POST', url: '/api/user/loginLink', payload: { token }, remoteAddress });
}

/** The token at the end of a mailed link. */
function tokenOf(link: string | null): string {
  const token = link?.split('/').pop();
  if (!token) throw new Error(`no token in ${link}`);
  return token;
}

/** A documentation address, distinct for each `i` below 65536. */
function addressOf(block: number, i: number): string {
  return `198.${block}.${Math.floor(i / 256)}.${i % 256}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Mails caught so far to `to`. */
function mailsTo(to: string): number {
  return catcher.mails.filter((m) => m.to.includes(to)).length;
}

describe('the owner past a spent sign-in budget', () => {
  it('gets the answer a wrong password gets, and a mailed link that signs in once', async () => {
    const m = await registerMember(t.app, 'spent');
    for (let i = 0; i < 25; i++) await login(t.app, m.nickname, WRONG_PASSWORD, addressOf(18, 4000 + i));

    const wrong = await login(t.app, m.nickname, WRONG_PASSWORD, addressOf(18, 4100));
    const right = await login(t.app, m.nickname, PASSWORD, addressOf(18, 4101));
    expect(right.statusCode).toBe(wrong.statusCode);
    expect(right.body).toBe(wrong.body);
    expect(right.statusCode).toBe(429);
    expect(right.json().message).toBe(SIGN_IN_LINK_MESSAGE);

    const mail = await catcher.next(m.email);
    expect(mail.subject).toBe('Your Starlight sign-in link');
    expect(mail.link).toMatch(/^https:\/\/starlight\.example\/loginlink\/[A-Za-z0-9_-]{150,255}$/);
    // Only the right password mailed: the wrong one sent nothing.
    await sleep(300);
    expect(mailsTo(m.email)).toBe(1);

    const laptop = addressOf(18, 4102);
    const first = await loginLink(tokenOf(mail.link), laptop);
    expect(first.statusCode, first.body).toBe(200);
    const signedIn = first.json<AuthResponse>();
    expect(signedIn.user.nickname).toBe(m.nickname);
    expect((await call(t.app, signedIn.token, 'GET', '/api/user/me')).statusCode).toBe(200);

    const second = await loginLink(tokenOf(mail.link), laptop);
    expect(second.statusCode).toBe(400);
    expect(second.json().message).toBe(MESSAGES.invalidLink);

    // The address that followed the link is known now; others are still throttled.
    expect((await login(t.app, m.nickname, PASSWORD, laptop)).statusCode).toBe(200);
    expect((await login(t.app, m.email, PASSWORD, addressOf(18, 4103))).statusCode).toBe(429);
  });

  it('gets a link at an address where others failed ten times (an office NAT)', async () => {
    const m = await registerMember(t.app, 'office');
    const office = '192.0.2.77';
    expect((await login(t.app, m.nickname, PASSWORD, office)).statusCode).toBe(200);
    for (let i = 0; i < 10; i++) await login(t.app, m.nickname, WRONG_PASSWORD, office);
    const right = await login(t.app, m.nickname, PASSWORD, office);
    expect(right.statusCode).toBe(429);
    expect(right.json().message).toBe(SIGN_IN_LINK_MESSAGE);
    // The first sign-in from the office mailed a new-device notice; the link is in the next mail.
    const token = tokenOf((await catcher.next(m.email, 5000, (mail) => mail.link !== null)).link);
    expect((await loginLink(token, office)).statusCode).toBe(200);
    // Following the link forgot the office's failures.
    expect((await login(t.app, m.nickname, PASSWORD, office)).statusCode).toBe(200);
  });

  it('a password change retires an unused sign-in link', async () => {
    const m = await registerMember(t.app, 'retire');
    // Ten failures from one address (the account's budget is not spent, so the member can still change it).
    const cafe = addressOf(18, 4300);
    for (let i = 0; i < 10; i++) await login(t.app, m.nickname, WRONG_PASSWORD, cafe);
    expect((await login(t.app, m.nickname, PASSWORD, cafe)).statusCode).toBe(429);
    const token = tokenOf((await catcher.next(m.email)).link);
    const changed = await call(t.app, m.token, 'POST', '/api/user/updateProfile', {
      password: NEW_PASSWORD,
      currentPassword: PASSWORD,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const res = await loginLink(token, addressOf(18, 4301));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(MESSAGES.invalidLink);
  });
});

describe('password re-checks spend the sign-in budget', () => {
  const changeEmail = (token: string, currentPassword: string, email: string) =>
    call(t.app, token, 'POST', '/api/user/updateProfile', { email, currentPassword });

  it('40 wrong currentPassword values: 20 are checked, the rest refused unchecked, the right one too', async () => {
    const m = await registerMember(t.app, 'recheck');
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++)
      statuses.push((await changeEmail(m.token, WRONG_PASSWORD, `x${i}.${m.email}`)).statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    const right = await changeEmail(m.token, PASSWORD, `new.${m.email}`);
    expect(right.statusCode).toBe(429);
    expect(right.json().message).toBe(RECHECKS_THROTTLED_MESSAGE);
    const me = await call(t.app, m.token, 'GET', '/api/user/me');
    expect(me.json<AuthResponse>().user.email).toBe(m.email);
    // The same budget as sign-in: a new address is stopped too.
    expect((await login(t.app, m.nickname, PASSWORD, addressOf(18, 4400))).statusCode).toBe(429);
  });

  it('a budget spent by strangers signing in refuses re-checks; a right re-check costs nothing', async () => {
    const m = await registerMember(t.app, 'shared');
    for (let i = 0; i < 5; i++) {
      expect((await changeEmail(m.token, PASSWORD, `r${i}.${m.email}`)).statusCode).toBe(200);
    }
    for (let i = 0; i < 20; i++) await login(t.app, m.nickname, WRONG_PASSWORD, addressOf(18, 4500 + i));
    const res = await changeEmail(m.token, PASSWORD, `late.${m.email}`);
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toBe(RECHECKS_THROTTLED_MESSAGE);
  });
});

describe('two replicas sharing Redis and PostgreSQL', () => {
  const redisApp = () =>
    makeApp({
      SMTP_URL: catcher.url,
      REDIS_URL: 'redis://127.0.0.1:6379',
      RATE_LIMIT_LOGIN_FAILURES: '10',
      RATE_LIMIT_ACCOUNT_FAILURES: '20',
    });
  const a = useTestApp({}, { build: redisApp });
  const b = useTestApp({}, { build: redisApp });

  it('a link mailed by one replica signs in once on the other', async () => {
    const m = await registerMember(a.app, 'replica');
    for (let i = 0; i < 20; i++) {
      await login(i % 2 ? a.app : b.app, m.nickname, WRONG_PASSWORD, addressOf(18, 4600 + i));
    }
    expect((await login(b.app, m.nickname, PASSWORD, addressOf(18, 4700))).json().message).toBe(SIGN_IN_LINK_MESSAGE);
    const token = tokenOf((await catcher.next(m.email)).link);
    const follow = (app: FastifyInstance) =>
      app.inject({ method: 'POST', url: '/api/user/loginLink', payload: { token }, remoteAddress: '192.0.2.88' });
    expect((await follow(a.app)).statusCode).toBe(200);
    expect((await follow(b.app)).statusCode).toBe(400);
  });
});
