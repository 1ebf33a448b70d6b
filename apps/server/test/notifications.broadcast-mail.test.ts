/**
 * Broadcasts and alert levels by e-mail (DESIGN §11.3), read from a real SMTP server: one broadcast row (none
 * per member) reaches by mail exactly the members who chose its kind in Settings → Notifications, are of its
 * role, signed up before it and have a confirmed address; once, however often the job runs, after a crash
 * between its pages, and with two server processes running it at once. Notification mails stop at
 * `NOTIFICATION_MAILS_PER_HOUR` a member an hour while the notifications stay in the app. Each test turns
 * its members' choices off at its end, so the next test's broadcasts mail only its own members. On a
 * database of its own, so the job meets only these broadcasts.
 */
import type { NotificationSettingsResponse, NotificationsResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltApp, buildApp } from '../src/app.ts';
import { withJobLock } from '../src/lib/periodic.ts';
import { takeBroadcastMails } from '../src/modules/notifications/notifications.queries.ts';
import {
  call,
  eventually,
  type Member,
  makeAppOnOwnDatabase,
  registerMember,
  testConfig,
  useTestApp,
  withRole,
} from './helpers.ts';
import { type CaughtMail, type MailCatcher, startMailCatcher } from './mail-catcher.ts';
import { TEST_DB_NAME, testDatabaseUrl } from './test-db.ts';

const DB = 'notification_broadcast_mails';
const SITE = 'https://starlight.example';
const VERIFY_SUBJECT = 'Verify your Starlight e-mail';

let catcher: MailCatcher;
beforeAll(async () => {
  catcher = await startMailCatcher();
});
afterAll(async () => {
  await catcher?.close();
});

/** This file's settings: mail through the catcher; the job ticks only when a test runs it (an hour apart). */
const settings = () => ({ SMTP_URL: catcher.url, PUBLIC_URL: SITE, NOTIFICATION_MAIL_EVERY_MS: '3600000' });
const t = useTestApp({}, { build: () => makeAppOnOwnDatabase(DB, settings()) });

/** Runs the mail job once on this file's app; resolves when its mails are sent. */
const runJob = () => t.built.notificationMails.runNow();

/** The addresses the mails titled `subject` went to, sorted, one entry per mail. */
function recipientsOf(subject: string): string[] {
  return catcher.mails
    .filter((x) => x.subject === subject)
    .map((x) => x.to)
    .sort();
}

/** What `members`' addresses look like in `recipientsOf`, sorted. */
function addressesOf(members: readonly Member[]): string[] {
  return members.map((m) => m.email).sort();
}

/** The mails caught so far to `m`, but the verification mail. */
function mailsTo(m: Member): CaughtMail[] {
  return catcher.mails.filter((x) => x.to.includes(m.email) && x.subject !== VERIFY_SUBJECT);
}

/** Saves `email` choices as `m` through the settings route; expects success. */
async function choose(m: Member, email: Record<string, boolean>): Promise<void> {
  const res = await call(t.app, m.token, 'POST', '/api/user/notificationSettings', { email });
  expect(res.statusCode, res.body).toBe(200);
  const saved = res.json<NotificationSettingsResponse>().settings.email;
  for (const [kind, on] of Object.entries(email)) expect(saved[kind as keyof typeof saved]).toBe(on);
}

/** Turns `members`' broadcast choices off, so later tests' broadcasts do not mail them. */
async function chooseNoMore(members: readonly Member[]): Promise<void> {
  for (const m of members) await choose(m, { broadcast: false, alert_level: false });
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

/** The admin's broadcast through the real route; expects success. */
async function broadcast(body: Record<string, unknown>): Promise<void> {
  const res = await call(t.app, t.admin.token, 'POST', '/api/audit/broadcast', body);
  expect(res.statusCode, res.body).toBe(200);
}

/** The admin sets the alert level through the real route; expects success. */
async function setAlertLevel(defconLvl: number, defconMsg: string): Promise<void> {
  const res = await call(t.app, t.admin.token, 'POST', '/api/audit/setDefconLevel', { defconLvl, defconMsg });
  expect(res.statusCode, res.body).toBe(200);
}

/** How many notifications `m` has in the app. */
async function inApp(m: Member): Promise<number> {
  const res = await call(t.app, m.token, 'POST', '/api/user/notifications', { paging: { limit: 50, page: 1 } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<NotificationsResponse>().total;
}

/** Rows of `notifications` (a broadcast writes none per member). */
async function ownRows(): Promise<number> {
  const res = await t.built.database.db.execute(sql`SELECT count(*)::int AS n FROM notifications`);
  return (res.rows[0] as { n: number }).n;
}

describe('a broadcast', () => {
  it('mails exactly the members who chose it, of its role, signed up before it, with a confirmed address', async () => {
    const chose = await confirmedMember('nbch');
    const creator = await withRole(t.built, await confirmedMember('nbcr'), 'creator');
    const alertOnly = await confirmedMember('nbal');
    const never = await confirmedMember('nbnv');
    const unconfirmed = await registerMember(t.app, 'nbun');
    const off = await confirmedMember('nbof');
    await choose(chose, { broadcast: true });
    await choose(creator, { broadcast: true });
    await choose(alertOnly, { alert_level: true });
    await choose(unconfirmed, { broadcast: true });
    await choose(off, { broadcast: true });
    await choose(off, { broadcast: false });
    const rowsBefore = await ownRows();

    await broadcast({ title: 'Maintenance tonight', body: 'The exchange pauses at 22:00 UTC.', link: '/main' });
    // Signed up after the broadcast: it is not theirs, in the app or by mail.
    const late = await confirmedMember('nblt');
    await choose(late, { broadcast: true });
    await broadcast({ title: 'Creators only', body: 'New tools', role: 'creator' });
    // One row each, none per member; nothing mailed before the job runs.
    expect(await ownRows()).toBe(rowsBefore);
    expect(recipientsOf('Maintenance tonight')).toEqual([]);

    await runJob();
    expect(recipientsOf('Maintenance tonight')).toEqual(addressesOf([chose, creator]));
    expect(recipientsOf('Creators only')).toEqual(addressesOf([creator]));
    const [mail] = mailsTo(chose);
    expect(mail?.text).toContain(`Hello ${chose.nickname},`);
    expect(mail?.text).toContain('The exchange pauses at 22:00 UTC.');
    expect(mail?.text).toContain(`Open it: ${SITE}/main`);
    expect(mail?.text).toContain(`${SITE}/userconfig#notifications`);
    for (const m of [alertOnly, never, off, late]) expect(mailsTo(m)).toEqual([]);
    expect(catcher.mails.filter((x) => x.to.includes(unconfirmed.email))).toEqual([]);
    // In the app the broadcasts show as ever, mailed or not.
    expect(await inApp(never)).toBe(1);
    expect(await inApp(creator)).toBe(2);
    expect(await inApp(late)).toBe(0);

    // Once: the next runs send nothing more, and no row per member was written to get there.
    await runJob();
    await runJob();
    expect(recipientsOf('Maintenance tonight')).toEqual(addressesOf([chose, creator]));
    expect(recipientsOf('Creators only')).toEqual(addressesOf([creator]));
    expect(await ownRows()).toBe(rowsBefore);
    await chooseNoMore([chose, creator, alertOnly, unconfirmed, late]);
  });
});

describe('a change of the alert level', () => {
  it('mails exactly the members who chose alert_level, once', async () => {
    const chose = await confirmedMember('nach');
    const both = await confirmedMember('nabo');
    const broadcastOnly = await confirmedMember('nabr');
    const unconfirmed = await registerMember(t.app, 'naun');
    await choose(chose, { alert_level: true });
    await choose(both, { alert_level: true, broadcast: true });
    await choose(broadcastOnly, { broadcast: true });
    await choose(unconfirmed, { alert_level: true });

    await setAlertLevel(3, 'Withdrawals are slow');
    await runJob();
    await runJob();
    expect(recipientsOf('Alert level 3')).toEqual(addressesOf([chose, both]));
    expect(mailsTo(chose)[0]?.text).toContain('Withdrawals are slow');
    expect(mailsTo(broadcastOnly)).toEqual([]);
    expect(catcher.mails.filter((x) => x.to.includes(unconfirmed.email))).toEqual([]);
    await setAlertLevel(5, '');
    await runJob();
    expect(recipientsOf('Alert level 5')).toEqual(addressesOf([chose, both]));
    await chooseNoMore([chose, both, broadcastOnly, unconfirmed]);
  });
});

describe('after a crash between pages', () => {
  it('goes on after the last page taken: the rest are mailed, nobody twice', async () => {
    const members = await Promise.all(Array.from({ length: 7 }, () => confirmedMember('nbcrash')));
    for (const m of members) await choose(m, { broadcast: true });
    await broadcast({ title: 'In pages', body: 'Seven members, pages of three' });

    // A process takes the first page (its marker commits with it) and dies before mailing it.
    const db = t.built.database.db;
    const taken = await withJobLock(db, 'mail-broadcasts', (tx) => takeBroadcastMails(tx, 3));
    expect(taken?.map((r) => r.user_id)).toHaveLength(3);
    const takenIds = new Set(taken?.map((r) => r.user_id));
    const marker = await db.execute(sql`SELECT mailed_until, mail_pending FROM broadcasts WHERE title = 'In pages'`);
    expect(marker.rows[0]).toEqual({ mailed_until: taken?.at(-1)?.user_id, mail_pending: true });

    // The job on a restarted process mails the other four, each once, and finishes the broadcast.
    await runJob();
    await runJob();
    const rest = members.filter((m) => !takenIds.has(m.id));
    expect(recipientsOf('In pages')).toEqual(addressesOf(rest));
    const done = await db.execute(sql`SELECT mail_pending FROM broadcasts WHERE title = 'In pages'`);
    expect(done.rows[0]).toEqual({ mail_pending: false });
    await chooseNoMore(members);
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

  it('mail each broadcast and alert level once to each member who chose it', async () => {
    const members = await Promise.all(Array.from({ length: 8 }, () => confirmedMember('nb2m')));
    for (const [i, m] of members.entries()) await choose(m, i % 2 === 0 ? { broadcast: true } : { alert_level: true });
    const broadcastTo = members.filter((_, i) => i % 2 === 0);
    const alertTo = members.filter((_, i) => i % 2 === 1);
    await broadcast({ title: 'Two processes', body: 'Once each' });
    await setAlertLevel(4, 'Two processes, one alert');
    await Promise.all([runJob(), b.notificationMails.runNow(), runJob(), b.notificationMails.runNow()]);
    const all = () => [...recipientsOf('Two processes'), ...recipientsOf('Alert level 4')];
    await eventually(
      async () => all(),
      (to) => to.length >= members.length,
    );
    // ...and after both run again: once each.
    await Promise.all([runJob(), b.notificationMails.runNow()]);
    await new Promise((r) => setTimeout(r, 200));
    expect(recipientsOf('Two processes')).toEqual(addressesOf(broadcastTo));
    expect(recipientsOf('Alert level 4')).toEqual(addressesOf(alertTo));
    await chooseNoMore(members);
    await setAlertLevel(5, '');
  });
});

describe('the hourly budget', () => {
  it('caps notification mails at NOTIFICATION_MAILS_PER_HOUR (12) a member; the rest stay in the app', async () => {
    const m = await confirmedMember('nbbud');
    const other = await confirmedMember('nbbuo');
    await choose(m, { broadcast: true });
    for (let i = 0; i < 13; i++) {
      await broadcast({ title: `Budget ${i}`, body: `Broadcast number ${i}` });
      await runJob();
    }
    expect(mailsTo(m).map((x) => x.subject)).toEqual(Array.from({ length: 12 }, (_, i) => `Budget ${i}`));
    // Its own budget: another member's mails are not counted against it, and the app lists all 13.
    await choose(other, { broadcast: true });
    await broadcast({ title: 'Budget after', body: 'Past the budget of one member only' });
    await runJob();
    expect(recipientsOf('Budget after')).toEqual(addressesOf([other]));
    expect(await inApp(m)).toBe(14);
    await chooseNoMore([m, other]);
  });
});
