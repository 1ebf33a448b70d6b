/**
 * Notifications by e-mail (DESIGN §11.3), read from a real SMTP server: a member who chose a kind in
 * Settings → Notifications gets a mail of each notification of it (made by the real transfer route), one
 * digest when several arrive at once; nobody else does (no choice, another kind, no confirmed address); the
 * security mails cannot be turned off; two server processes running the job mail each once; the
 * per-recipient hourly limit holds. The job runs when a test says (`runNow`), except on the second process
 * of the last block, which ticks on its own. On a database of its own, so the job meets only these rows.
 */
import type { NotificationSettingsResponse, NotificationsResponse } from '@starlight/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltApp, buildApp } from '../src/app.ts';
import { bankCalls } from './bank.helpers.ts';
import {
  call,
  eventually,
  expectLedgerBalanced,
  type Member,
  makeAppOnOwnDatabase,
  mint,
  registerMember,
  testConfig,
  useTestApp,
} from './helpers.ts';
import { type CaughtMail, type MailCatcher, startMailCatcher } from './mail-catcher.ts';
import { TEST_DB_NAME, testDatabaseUrl } from './test-db.ts';

const DB = 'notification_mails';
const SITE = 'https://starlight.example';
const VERIFY_SUBJECT = 'Verify your Starlight e-mail';

let catcher: MailCatcher;
beforeAll(async () => {
  catcher = await startMailCatcher();
});
afterAll(async () => {
  await catcher?.close();
});

/**
 * This file's settings: mail through the catcher; the job ticks only when a test runs it (an hour apart);
 * 3 notification mails per address an hour.
 */
const settings = () => ({
  SMTP_URL: catcher.url,
  PUBLIC_URL: SITE,
  NOTIFICATION_MAIL_EVERY_MS: '3600000',
  NOTIFICATION_MAILS_PER_HOUR: '3',
});
const t = useTestApp({}, { build: () => makeAppOnOwnDatabase(DB, settings()) });
const { transfer } = bankCalls(t);

/** Runs the mail job once on this file's app; resolves when its mails are sent. */
const runJob = () => t.built.notificationMails.runNow();

/** The notification mails caught so far to `m` (not the verification mail). */
function mailsTo(m: Member): CaughtMail[] {
  return catcher.mails.filter((x) => x.to.includes(m.email) && x.subject !== VERIFY_SUBJECT);
}

/** Saves `email` choices as `m` through the settings route; expects success. */
async function choose(m: Member, email: Record<string, boolean>): Promise<NotificationSettingsResponse> {
  const res = await call(t.app, m.token, 'POST', '/api/user/notificationSettings', { email });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<NotificationSettingsResponse>();
}

/** A new member whose address is confirmed through the mailed link, as a member does it. */
async function confirmedMember(prefix: string): Promise<Member> {
  const m = await registerMember(t.app, prefix);
  const sent = await call(t.app, m.token, 'POST', '/api/user/sendVerificationEmail', {});
  expect(sent.statusCode, sent.body).toBe(200);
  const link = (await catcher.next(m.email, 5000, (x) => x.subject === VERIFY_SUBJECT)).link;
  const token = link?.split('/').pop();
  const verified = await t.app.inject({ method: 'POST', url: '/api/user/verifyEmail', payload: { token } });
  expect(verified.statusCode, verified.body).toBe(200);
  return m;
}

/** A member holding `amount` SD (currency 1). */
async function payer(prefix: string, amount = '1000'): Promise<Member> {
  const m = await registerMember(t.app, prefix);
  await mint(t.app, t.admin, m.nickname, 1, amount);
  return m;
}

/** Transfers `amount` SD from `from` to `to` through the real route; expects success. */
async function pay(from: Member, to: Member, amount: string, note?: string): Promise<void> {
  const res = await transfer(from, to.nickname, 1, amount, note ? { note } : {});
  expect(res.statusCode, res.body).toBe(200);
}

describe('one notification', () => {
  it('goes as one mail with the amount, the currency, the sender and a link, once', async () => {
    const alice = await payer('nmsa');
    const bob = await confirmedMember('nmsb');
    await choose(bob, { transfer_received: true });
    await pay(alice, bob, '12.50', 'for <lunch> & more');
    // Nothing goes before the job runs: the transfer's answer does not wait for a mail.
    expect(mailsTo(bob)).toEqual([]);

    await runJob();
    const [mail, ...others] = mailsTo(bob);
    expect(others).toEqual([]);
    // 1% tax on 12.50 is 0.13: bob received 12.37.
    expect(mail?.subject).toBe('You received 12.37 SD');
    expect(mail?.text).toContain(`Hello ${bob.nickname},`);
    expect(mail?.text).toContain(`From ${alice.nickname}: "for <lunch> & more"`);
    expect(mail?.text).toContain(`Open it: ${SITE}/userbank`);
    expect(mail?.text).toContain(`${SITE}/userconfig#notifications`);
    // The member's words are text in the HTML, never markup.
    expect(mail?.html).toContain('for &#60;lunch&#62; &#38; more');
    expect(mail?.html).not.toContain('<lunch>');
    expect(mail?.html).toContain(`href="${SITE}/userbank"`);
    expect(mailsTo(alice)).toEqual([]);

    // Taken once: the next runs send nothing more.
    await runJob();
    await runJob();
    expect(mailsTo(bob)).toHaveLength(1);
    await expectLedgerBalanced(t.app, t.admin);
  });
});

describe('several at once', () => {
  it('go as one digest listing each, up to 20 and then how many more', async () => {
    const bob = await confirmedMember('nmdb');
    await choose(bob, { transfer_received: true });
    const payers = await Promise.all([payer('nmda'), payer('nmda'), payer('nmda')]);
    // 22 transfers at once from three members.
    await Promise.all(Array.from({ length: 22 }, (_, i) => pay(payers[i % 3] as Member, bob, '1')));

    await runJob();
    const [mail, ...others] = mailsTo(bob);
    expect(others).toEqual([]);
    expect(mail?.subject).toBe('22 new notifications on Starlight');
    const lines = mail?.text.split('\n') ?? [];
    const listed = lines.filter((l) => l.startsWith('- You received 0.99 SD: From '));
    expect(listed).toHaveLength(20);
    for (const p of payers) expect(listed.some((l) => l.endsWith(`From ${p.nickname}`))).toBe(true);
    expect(lines).toContain('and 2 more');
    expect(mail?.text).toContain(`See them all: ${SITE}/notifications`);
    expect(mail?.text).toContain(`${SITE}/userconfig#notifications`);
    expect(mail?.html).toContain(`href="${SITE}/notifications"`);
    expect(mail?.html).toContain(`href="${SITE}/userconfig#notifications"`);
    // All 22 are in the app, whatever the mail listed.
    const list = await call(t.app, bob.token, 'POST', '/api/user/notifications', { paging: { limit: 50, page: 1 } });
    expect(list.json<NotificationsResponse>().total).toBe(22);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('two at once go as a digest of two', async () => {
    const alice = await payer('nmd2a');
    const bob = await confirmedMember('nmd2b');
    await choose(bob, { transfer_received: true });
    await pay(alice, bob, '2', 'first');
    await pay(alice, bob, '3', 'second');
    await runJob();
    const [mail, ...others] = mailsTo(bob);
    expect(others).toEqual([]);
    expect(mail?.subject).toBe('2 new notifications on Starlight');
    expect(mail?.text).toContain(`- You received 1.98 SD: From ${alice.nickname}: "first"`);
    expect(mail?.text).toContain(`- You received 2.97 SD: From ${alice.nickname}: "second"`);
    expect(mail?.text).not.toContain('more');
    await expectLedgerBalanced(t.app, t.admin);
  });
});

describe('who gets none', () => {
  it('a member who did not choose, chose another kind, or turned the kind off again', async () => {
    const alice = await payer('nmna');
    const chose = await confirmedMember('nmnc');
    const never = await confirmedMember('nmnn');
    const other = await confirmedMember('nmno');
    const off = await confirmedMember('nmnf');
    await choose(chose, { transfer_received: true });
    await choose(other, { order_filled: true });
    await choose(off, { transfer_received: true });
    await choose(off, { transfer_received: false });
    for (const m of [never, other, off, chose]) await pay(alice, m, '5');

    await runJob();
    // The job ran: the member who chose got theirs, written last.
    expect(mailsTo(chose)).toHaveLength(1);
    for (const m of [never, other, off]) expect(mailsTo(m)).toEqual([]);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('a member whose address is not confirmed, even having chosen', async () => {
    const alice = await payer('nmua');
    const unconfirmed = await registerMember(t.app, 'nmuu');
    const chose = await confirmedMember('nmuc');
    await choose(unconfirmed, { transfer_received: true });
    await choose(chose, { transfer_received: true });
    await pay(alice, unconfirmed, '5');
    await pay(alice, chose, '5');

    await runJob();
    expect(mailsTo(chose)).toHaveLength(1);
    expect(catcher.mails.filter((x) => x.to.includes(unconfirmed.email))).toEqual([]);
    await expectLedgerBalanced(t.app, t.admin);
  });
});

describe('security e-mails', () => {
  it('cannot be turned off: 400 and nothing changes; they always show on', async () => {
    const m = await confirmedMember('nmsec');
    await choose(m, { transfer_received: true });
    const res = await call(t.app, m.token, 'POST', '/api/user/notificationSettings', {
      email: { transfer_received: false, order_filled: true, security: false },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Security e-mails cannot be turned off');
    const got = await call(t.app, m.token, 'GET', '/api/user/notificationSettings');
    expect(got.statusCode, got.body).toBe(200);
    const email = got.json<NotificationSettingsResponse>().settings.email;
    expect(Object.entries(email).filter(([, on]) => on)).toEqual([
      ['transfer_received', true],
      ['security', true],
    ]);
    // Saying on is fine, and changes nothing else.
    const on = await choose(m, { security: true });
    expect(on.settings.email).toEqual(email);
  });
});

describe('the per-recipient limit', () => {
  it('holds: at most NOTIFICATION_MAILS_PER_HOUR (3) notification mails an hour; the notifications stay in the app', async () => {
    const alice = await payer('nmla');
    const bob = await confirmedMember('nmlb');
    await choose(bob, { transfer_received: true });
    for (let i = 0; i < 4; i++) {
      await pay(alice, bob, '1', `round ${i}`);
      await runJob();
    }
    const mails = mailsTo(bob);
    expect(mails.map((x) => x.text.match(/"round \d"/)?.[0])).toEqual(['"round 0"', '"round 1"', '"round 2"']);
    const list = await call(t.app, bob.token, 'POST', '/api/user/notifications', { paging: { limit: 50, page: 1 } });
    expect(list.json<NotificationsResponse>().total).toBe(4);
    await expectLedgerBalanced(t.app, t.admin);
  });
});

describe('two server processes', () => {
  let b: BuiltApp;
  beforeAll(async () => {
    // The second process ticks every 50 ms on its own, as a replica does, beside the first one's runs.
    b = await buildApp(
      testConfig({
        DATABASE_URL: testDatabaseUrl(`${TEST_DB_NAME}_${DB}`),
        ...settings(),
        NOTIFICATION_MAIL_EVERY_MS: '50',
      }),
    );
  });
  afterAll(() => b?.app.close());

  it('mail each notification once', async () => {
    const alice = await payer('nm2a');
    const members = await Promise.all(Array.from({ length: 6 }, () => confirmedMember('nm2m')));
    for (const m of members) await choose(m, { transfer_received: true });
    // Half get one transfer, half two (a digest, or two mails when a tick falls between them); each is
    // known by its note.
    const notes = members.map((m, i) =>
      i % 2 === 0 ? [`${m.nickname} one`] : [`${m.nickname} one`, `${m.nickname} two`],
    );
    await Promise.all(members.flatMap((m, i) => (notes[i] ?? []).map((n) => pay(alice, m, '1', n))));
    await Promise.all([runJob(), b.notificationMails.runNow(), runJob(), b.notificationMails.runNow()]);
    // How often each member's notes were mailed, once every note has arrived, whichever process took it...
    const mailed = () =>
      members.map((m, i) => (notes[i] ?? []).map((n) => mailsTo(m).filter((x) => x.text.includes(`"${n}"`)).length));
    await eventually(
      async () => mailed(),
      (counts) => counts.flat().every((c) => c > 0),
    );
    // ...and after both run again: once each.
    await Promise.all([runJob(), b.notificationMails.runNow()]);
    expect(mailed()).toEqual(notes.map((list) => list.map(() => 1)));
    expect(mailsTo(members[0] as Member).map((x) => x.subject)).toEqual(['You received 0.99 SD']);
    await expectLedgerBalanced(t.app, t.admin);
  });
});
