/**
 * Security mails (DESIGN §11.1), read from the `.eml` outbox: a password change (Settings and a reset
 * link), an e-mail change (to the new and the old address), a sign-in from a new device and address (not a
 * known one, not a registration), two-factor turned off and a passkey added. Each names when, from where,
 * on what device, and links to Settings' sessions.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryFailureCounter } from '../src/lib/failure-counter.ts';
import { createMailer } from '../src/lib/mailer.ts';
import type { MailLinkDeps } from '../src/modules/users/mail-links.ts';
import { mailPasskeyAddedLater, mailTwoFactorOffLater, securityEventOf } from '../src/modules/users/security-mails.ts';
import { call, eventually, makeApp, PASSWORD, registerMember, useTestApp } from './helpers.ts';
import { type CaughtMail, readOutbox } from './mail-catcher.ts';

const PUBLIC_URL = 'https://starlight.example';
const SESSIONS_LINK = `${PUBLIC_URL}/userconfig#sessions`;
const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
/** How `app.inject` looks to the server without headers: its User-Agent and address. */
const INJECT_DEVICE = 'Unknown device';

let dataDir: string;
const t = useTestApp(
  {},
  {
    build: async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'starlight-security-mails-'));
      return makeApp({ DATA_DIR: dataDir, PUBLIC_URL });
    },
  },
);
afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Every mail to `to` so far, oldest first. */
async function mailsTo(to: string): Promise<CaughtMail[]> {
  return (await readOutbox(path.join(dataDir, 'outbox'))).filter((m) => m.to.includes(to));
}

/** Waits until `to` has `count` mails and answers them. */
async function awaitMails(to: string, count: number): Promise<CaughtMail[]> {
  const mails = await eventually(
    () => mailsTo(to),
    (m) => m.length >= count,
  );
  expect(mails.map((m) => m.subject)).toHaveLength(count);
  return mails;
}

/** Checks that `mail` names the device, the address, a UTC time and links to Settings' sessions. */
function expectFacts(mail: CaughtMail, device: string, address: string): void {
  expect(mail.text).toContain(`Device: ${device}`);
  expect(mail.text).toContain(`From: ${address}`);
  expect(mail.text).toMatch(/When: \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  expect(mail.text).toContain(SESSIONS_LINK);
  expect(mail.html).toContain(`href="${SESSIONS_LINK}"`);
  expect(mail.html).toContain(device);
}

function login(nickOrEmail: string, userAgent?: string, remoteAddress?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/user/login',
    payload: { nickOrEmail, password: PASSWORD },
    ...(userAgent ? { headers: { 'user-agent': userAgent } } : {}),
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

describe('a sign-in from a new device and address', () => {
  it('mails the owner once per device and address, never for the registration or a known one', async () => {
    const m = await registerMember(t.app, 'dev');
    // The registration's device and address are known: signing in from them mails nothing.
    expect((await login(m.nickname)).statusCode).toBe(200);

    expect((await login(m.nickname, CHROME_LINUX)).statusCode).toBe(200);
    const [first] = await awaitMails(m.email, 1);
    expect(first?.subject).toBe('New sign-in to your Starlight account');
    expect(first?.text).toContain(`Hello ${m.nickname}`);
    expectFacts(first as CaughtMail, 'Chrome 131 on Linux', '127.0.0.1');

    // The same device and address again: nothing. A known device from another address: a mail.
    expect((await login(m.nickname, CHROME_LINUX)).statusCode).toBe(200);
    expect((await login(m.email, SAFARI_IOS, '203.0.113.7')).statusCode).toBe(200);
    const mails = await awaitMails(m.email, 2);
    expectFacts(mails[1] as CaughtMail, 'Safari 17 on iOS', '203.0.113.7');
    expect((await login(m.nickname, SAFARI_IOS, '203.0.113.7')).statusCode).toBe(200);
    expect((await login(m.nickname, CHROME_LINUX, '203.0.113.7')).statusCode).toBe(200);
    const after = await awaitMails(m.email, 3);
    expectFacts(after[2] as CaughtMail, 'Chrome 131 on Linux', '203.0.113.7');
  });
});

describe('a password change', () => {
  it('in Settings mails the owner', async () => {
    const m = await registerMember(t.app, 'pwd');
    const res = await call(
      t.app,
      m.token,
      'POST',
      '/api/user/updateProfile',
      { password: 'N3w!Passw0rd-x', currentPassword: PASSWORD },
      { 'user-agent': CHROME_LINUX },
    );
    expect(res.statusCode, res.body).toBe(200);
    const [mail] = await awaitMails(m.email, 1);
    expect(mail?.subject).toBe('Your Starlight password was changed');
    expectFacts(mail as CaughtMail, 'Chrome 131 on Linux', '127.0.0.1');
  });

  it('through a reset link mails the owner', async () => {
    const m = await registerMember(t.app, 'rst');
    const asked = await t.app.inject({ method: 'POST', url: '/api/user/forgotPassword', payload: { email: m.email } });
    expect(asked.statusCode).toBe(200);
    const [reset] = await awaitMails(m.email, 1);
    const token = reset?.link?.split('/').pop();
    const done = await t.app.inject({
      method: 'POST',
      url: '/api/user/resetPassword',
      payload: { token, password: 'N3w!Passw0rd-y' },
      headers: { 'user-agent': SAFARI_IOS },
      remoteAddress: '198.51.100.4',
    });
    expect(done.statusCode, done.body).toBe(200);
    const mails = await awaitMails(m.email, 2);
    expect(mails[1]?.subject).toBe('Your Starlight password was changed');
    expectFacts(mails[1] as CaughtMail, 'Safari 17 on iOS', '198.51.100.4');
  });
});

describe('an e-mail change', () => {
  it('mails the new address and the old one', async () => {
    const m = await registerMember(t.app, 'eml');
    const newEmail = `new-${m.email}`;
    const res = await call(t.app, m.token, 'POST', '/api/user/updateProfile', {
      email: newEmail,
      currentPassword: PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(200);
    const [toNew] = await awaitMails(newEmail, 1);
    const toOld = (await awaitMails(m.email, 2)).find((x) => !x.to.includes(newEmail));
    for (const mail of [toNew, toOld]) {
      expect(mail?.subject).toBe('Your Starlight e-mail was changed');
      expect(mail?.text).toContain(`from ${m.email} to ${newEmail}`);
      expectFacts(mail as CaughtMail, INJECT_DEVICE, '127.0.0.1');
    }
    // A nickname change alone mails nothing: the next mail to the new address is a new sign-in's.
    const renamed = await call(t.app, m.token, 'POST', '/api/user/updateProfile', { isAnonymous: true });
    expect(renamed.statusCode).toBe(200);
    expect((await login(newEmail, SAFARI_IOS)).statusCode).toBe(200);
    const later = await awaitMails(newEmail, 2);
    expect(later[1]?.subject).toBe('New sign-in to your Starlight account');
  });
});

describe('the senders the second factors call', () => {
  function deps(): MailLinkDeps {
    return {
      db: t.built.database.db,
      app: t.app,
      mailsSent: memoryFailureCounter(),
      maxMailsPerRecipient: 1,
      mailer: createMailer({
        smtpUrl: undefined,
        from: 'Starlight <no-reply@starlight.test>',
        dataDir,
        log: t.app.log,
      }),
      publicUrl: PUBLIC_URL,
    };
  }

  it('mail two-factor turned off and a passkey added, each within its per-recipient limit', async () => {
    const m = await registerMember(t.app, 'mfa');
    const d = deps();
    const event = securityEventOf({ address: '192.0.2.9', userAgent: CHROME_LINUX });
    mailTwoFactorOffLater(d, m, event);
    const [off] = await awaitMails(m.email, 1);
    expect(off?.subject).toBe('Two-factor authentication was turned off on your Starlight account');
    expectFacts(off as CaughtMail, 'Chrome 131 on Linux', '192.0.2.9');

    mailPasskeyAddedLater(d, m, event, 'YubiKey 5');
    // Over the limit of one per kind: this one is not sent.
    mailTwoFactorOffLater(d, m, event);
    const mails = await awaitMails(m.email, 2);
    expect(mails[1]?.subject).toBe('A passkey was added to your Starlight account');
    expect(mails[1]?.text).toContain('(YubiKey 5)');
    expectFacts(mails[1] as CaughtMail, 'Chrome 131 on Linux', '192.0.2.9');
    mailPasskeyAddedLater(d, { nickname: 'ghost', email: null }, event);
    await new Promise((r) => setTimeout(r, 200));
    expect(await mailsTo(m.email)).toHaveLength(2);
  });
});
