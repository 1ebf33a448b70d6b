/**
 * Notifications (DESIGN §11.3): written by their real triggers (a transfer, batched or not; a change of the
 * alert level; the admin's broadcast) in the same transaction, none for a refused operation; the member's
 * list (paging, unread only), read marks (another member's id refused), broadcasts read beside the
 * member's rows without a row per member, the role filter, the e-mail settings, bad input, the live push
 * on another server process, and the pruning after 90 days. On a database of its own, so broadcasts sent
 * by other files' tests do not show in these members' lists.
 */
import type {
  Notification,
  NotificationSettingsResponse,
  NotificationsResponse,
  ReadNotificationsResponse,
} from '@starlight/shared';
import { ADMIN_CATEGORY } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../src/app.ts';
import { buildApp } from '../src/app.ts';
import { declaredRoutes } from '../src/http/access.ts';
import { startNotificationPruning } from '../src/modules/notifications/notifications.service.ts';
import { bankCalls } from './bank.helpers.ts';
import {
  call,
  expectLedgerBalanced,
  type Member,
  makeAppOnOwnDatabase,
  mint,
  registerMember,
  useTestApp,
  withRole,
} from './helpers.ts';
import { LiveSocket } from './live-socket.ts';
import { TEST_DB_NAME, testConfig, testDatabaseUrl } from './test-db.ts';

const DB = 'notifications';
const t = useTestApp({}, { build: () => makeAppOnOwnDatabase(DB) });
const { transfer, newCurrency } = bankCalls(t);

function list(m: Member, body: Record<string, unknown> = { paging: { limit: 50, page: 1 } }) {
  return call(t.app, m.token, 'POST', '/api/user/notifications', body);
}
async function listOk(m: Member, body?: Record<string, unknown>): Promise<NotificationsResponse> {
  const res = await list(m, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<NotificationsResponse>();
}
function markRead(m: Member, body: Record<string, unknown> = {}) {
  return call(t.app, m.token, 'POST', '/api/user/notifications/read', body);
}
function broadcast(body: Record<string, unknown>, as: Member = t.admin) {
  return call(t.app, as.token, 'POST', '/api/audit/broadcast', body);
}
async function rows(where = sql`true`): Promise<number> {
  const res = await t.built.database.db.execute(sql`SELECT count(*)::int AS n FROM notifications WHERE ${where}`);
  return (res.rows[0] as { n: number }).n;
}
const rowsOf = (m: Member) => rows(sql`user_id = ${m.id}`);

/** A member holding `amount` SD (currency 1), and a new member to pay. */
async function payerAndPayee(prefix: string, amount = '100'): Promise<[Member, Member]> {
  const payer = await registerMember(t.app, `${prefix}a`);
  const payee = await registerMember(t.app, `${prefix}b`);
  await mint(t.app, t.admin, payer.nickname, 1, amount);
  return [payer, payee];
}

describe('a transfer', () => {
  it('tells the recipient, once, in the words of the transfer; the sender gets nothing', async () => {
    const [alice, bob] = await payerAndPayee('ntr');
    const res = await transfer(alice, bob.nickname, 1, '12.50', { note: 'for lunch' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await rowsOf(bob)).toBe(1);
    expect(await rowsOf(alice)).toBe(0);
    const got = await listOk(bob);
    expect(got).toMatchObject({ total: 1, unread: 1, message: 'OK' });
    // 1% tax on 12.50 is 0.13: bob received 12.37.
    expect(got.notifications).toEqual([
      {
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        kind: 'transfer_received',
        title: 'You received 12.37 SD',
        body: `From ${alice.nickname}: "for lunch"`,
        link: '/userbank',
        createdAt: expect.any(String),
        read: false,
      },
    ]);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('writes none for a refused transfer', async () => {
    const [alice, bob] = await payerAndPayee('ntno', '5');
    expect((await transfer(alice, bob.nickname, 1, '50')).statusCode).toBe(409);
    expect((await transfer(alice, alice.nickname, 1, '1')).statusCode).toBe(400);
    expect((await transfer(bob, alice.nickname, 1, '1')).statusCode).toBe(409);
    expect(await rowsOf(bob)).toBe(0);
    expect(await rowsOf(alice)).toBe(0);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('in a batch, writes one per accepted transfer and none for the refused ones among them', async () => {
    const payer = await registerMember(t.app, 'ntbatch');
    await mint(t.app, t.admin, payer.nickname, 1, '10');
    const payees = await Promise.all(Array.from({ length: 6 }, () => registerMember(t.app, 'ntbp')));
    // Six transfers of 3 SD at once from 10 SD: three are paid, three refused for funds.
    const results = await Promise.all(payees.map((p) => transfer(payer, p.nickname, 1, '3', { note: 'split' })));
    const paid = payees.filter((_, i) => results[i]?.statusCode === 200);
    expect(paid).toHaveLength(3);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(3);
    for (const p of payees) expect(await rowsOf(p)).toBe(paid.includes(p) ? 1 : 0);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('with an Idempotency-Key, tells the recipient once however often it is repeated', async () => {
    const [alice, bob] = await payerAndPayee('ntidem');
    const headers = { 'Idempotency-Key': `ntf-${alice.id}` };
    for (let i = 0; i < 2; i++) {
      const res = await transfer(alice, bob.nickname, 1, '2', {}, headers);
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await rowsOf(bob)).toBe(1);
    await expectLedgerBalanced(t.app, t.admin);
  });
});

describe('a settlement', () => {
  it('tells the member when their withdrawal is refused or approved, once; nothing for a refused settle', async () => {
    const coin = await newCurrency({ canWithdraw: true });
    const m = await registerMember(t.app, 'ntset');
    await mint(t.app, t.admin, m.nickname, coin.currencyId, '50');
    const wallet = '0xabcdef0123456789abcdef0123456789abcdef01';
    const withdraw = async (amount: string) => {
      const res = await call(t.app, m.token, 'POST', '/api/bank/withdraw', {
        currencyId: coin.currencyId,
        amount,
        walletAddress: wallet,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ settlement: { _id: string } }>().settlement._id;
    };
    const settle = (settlementId: string, approve: boolean, note = '') =>
      call(t.app, t.admin.token, 'POST', '/api/bank/settle', { settlementId, approve, note });
    const refused = await withdraw('10');
    const approved = await withdraw('5');
    expect(await rowsOf(m)).toBe(0);

    expect((await settle(refused, false, 'wrong chain')).statusCode).toBe(200);
    expect((await settle(refused, true)).statusCode).toBe(409);
    expect((await settle(approved, true)).statusCode).toBe(200);
    expect(await rowsOf(m)).toBe(2);
    const got = (await listOk(m)).notifications.map(({ kind, title, body, link }) => ({ kind, title, body, link }));
    expect(got).toEqual([
      {
        kind: 'settlement_settled',
        title: `Your withdrawal of 5.00 ${coin.ticker} was approved`,
        body: 'Your withdrawal is settled.',
        link: '/userbank',
      },
      {
        kind: 'settlement_settled',
        title: `Your withdrawal of 10.00 ${coin.ticker} was refused`,
        body: 'It was paid back to you with its tax. Note: wrong chain',
        link: '/userbank',
      },
    ]);
    await expectLedgerBalanced(t.app, t.admin);
  });
});

describe("a member's list", () => {
  let alice: Member;
  let bob: Member;
  beforeAll(async () => {
    [alice, bob] = await payerAndPayee('ntlist');
    for (let i = 1; i <= 7; i++) {
      const res = await transfer(alice, bob.nickname, 1, String(i), { note: `n${i}` });
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('pages newest first with the total and the unread count', async () => {
    const first = await listOk(bob, { paging: { limit: 5, page: 1 } });
    expect(first).toMatchObject({ total: 7, unread: 7 });
    expect(first.notifications.map((n) => n.body)).toEqual(
      [7, 6, 5, 4, 3].map((i) => `From ${alice.nickname}: "n${i}"`),
    );
    const second = await listOk(bob, { paging: { limit: 5, page: 2 } });
    expect(second.notifications.map((n) => n.body)).toEqual([2, 1].map((i) => `From ${alice.nickname}: "n${i}"`));
    expect((await listOk(bob, { paging: { limit: 5, page: 3 } })).notifications).toEqual([]);
  });

  it('marks some read, lists the unread only, then marks all', async () => {
    const all = (await listOk(bob)).notifications;
    const two = all.slice(0, 2).map((n) => n._id);
    const res = await markRead(bob, { ids: two });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ReadNotificationsResponse>()).toEqual({ unread: 5, message: 'Marked as read' });
    const unread = await listOk(bob, { paging: { limit: 50, page: 1 }, unreadOnly: true });
    expect(unread).toMatchObject({ total: 5, unread: 5 });
    expect(unread.notifications.map((n) => n._id)).toEqual(all.slice(2).map((n) => n._id));
    expect((await listOk(bob)).notifications.map((n) => n.read)).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
      false,
    ]);

    const allRead = await markRead(bob);
    expect(allRead.json<ReadNotificationsResponse>()).toEqual({
      unread: 0,
      message: 'All notifications marked as read',
    });
    expect(await listOk(bob, { paging: { limit: 5, page: 1 }, unreadOnly: true })).toMatchObject({
      notifications: [],
      total: 0,
      unread: 0,
    });
  });

  it("refuses another member's id (or an unknown one) with 404 and changes nothing", async () => {
    const [carol, dave] = await payerAndPayee('ntother');
    expect((await transfer(carol, dave.nickname, 1, '1')).statusCode).toBe(200);
    const [daves] = (await listOk(dave)).notifications as [Notification];
    const bobs = (await listOk(bob)).notifications[0] as Notification;
    for (const ids of [[daves._id], [bobs._id, daves._id], ['0'.repeat(24)]]) {
      const res = await markRead(bob, { ids });
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().message).toBe('Notification not found');
    }
    expect((await listOk(dave)).unread).toBe(1);
    // Bob never reads Dave's notification in his own list either.
    expect((await listOk(bob)).notifications.map((n) => n._id)).not.toContain(daves._id);
  });

  it('refuses bad input with the list rules’ messages', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ paging: { limit: 4, page: 1 } }, '"paging.limit" contains an invalid value'],
      [{ paging: { limit: 51, page: 1 } }, '"paging.limit" contains an invalid value'],
      [{ paging: { limit: 10, page: 0 } }, '"paging.page" contains an invalid value'],
      [{}, '"paging" is required'],
      [{ paging: { limit: 10, page: 1 }, unreadOnly: 'yes' }, '"unreadOnly" contains an invalid value'],
    ];
    for (const [body, message] of cases) {
      const res = await list(bob, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    for (const [body, message] of [
      [{ ids: [] }, '"ids" contains an invalid value'],
      [{ ids: ['xyz'] }, '"ids.0" contains an invalid value'],
    ] as const) {
      const res = await markRead(bob, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect((await list({ ...bob, token: '' })).statusCode).toBe(401);
  });
});

describe('a broadcast', () => {
  it('reaches every member without a row per member, and is written to the admin log', async () => {
    const m = await registerMember(t.app, 'ntbc');
    const before = await rows();
    const res = await broadcast({
      title: '  Maintenance tonight ',
      body: 'The exchange pauses at 22:00 UTC.',
      link: '/main',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Broadcast sent to every member' });
    expect(await rows()).toBe(before);
    const got = await listOk(m);
    expect(got).toMatchObject({ total: 1, unread: 1 });
    expect(got.notifications[0]).toMatchObject({
      kind: 'broadcast',
      title: 'Maintenance tonight',
      body: 'The exchange pauses at 22:00 UTC.',
      link: '/main',
      read: false,
    });
    const log = await t.built.database.db.execute(
      sql`SELECT action FROM admin_logs WHERE category = ${ADMIN_CATEGORY.Broadcast} ORDER BY created_at DESC LIMIT 1`,
    );
    expect(log.rows[0]).toEqual({ action: 'Broadcast to every member: Maintenance tonight' });

    // Read by id, then it stays read; a later member never sees it.
    const id = got.notifications[0]?._id as string;
    expect((await markRead(m, { ids: [id] })).json<ReadNotificationsResponse>().unread).toBe(0);
    expect((await listOk(m)).notifications[0]?.read).toBe(true);
    expect((await listOk(await registerMember(t.app, 'ntlate'))).total).toBe(0);
  });

  it('to one role reaches only that role', async () => {
    const user = await registerMember(t.app, 'ntru');
    const creator = await withRole(t.built, await registerMember(t.app, 'ntrc'), 'creator');
    const res = await broadcast({
      title: 'Creators',
      body: 'New tools',
      role: 'creator',
      link: 'https://example.com/x',
    });
    expect(res.json()).toEqual({ message: 'Broadcast sent to every creator' });
    expect((await listOk(user)).total).toBe(0);
    expect((await listOk(creator)).notifications.map((n) => n.title)).toEqual(['Creators']);
  });

  it('refuses bad input and non-admins, and sends nothing', async () => {
    const m = await registerMember(t.app, 'ntbad');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ title: '   ', body: 'x' }, 'Title must be 1 to 100 characters'],
      [{ title: 'x'.repeat(101), body: 'x' }, 'Title must be 1 to 100 characters'],
      [{ title: 'x', body: '' }, 'Body must be 1 to 1000 characters'],
      [{ title: 'x', body: 'y'.repeat(1001) }, 'Body must be 1 to 1000 characters'],
      [{ body: 'x' }, '"title" is required'],
      [{ title: 'x', body: 'x', link: '//evil.example' }, 'Link must be a path of this site (/...) or an https URL'],
      [
        { title: 'x', body: 'x', link: 'http://plain.example' },
        'Link must be a path of this site (/...) or an https URL',
      ],
      [{ title: 'x', body: 'x', role: 'king' }, '"role" contains an invalid value'],
    ];
    for (const [body, message] of cases) {
      const res = await broadcast(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect((await broadcast({ title: 'x', body: 'x' }, m)).statusCode).toBe(403);
    expect((await listOk(m)).total).toBe(0);
  });

  it('a change of the alert level is an alert_level notification to everyone, no row per member', async () => {
    const m = await registerMember(t.app, 'ntdef');
    const before = await rows();
    const res = await call(t.app, t.admin.token, 'POST', '/api/audit/setDefconLevel', {
      defconLvl: 2,
      defconMsg: 'Withdrawals are slow',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await rows()).toBe(before);
    expect((await listOk(m)).notifications[0]).toMatchObject({
      kind: 'alert_level',
      title: 'Alert level 2',
      body: 'Withdrawals are slow',
      read: false,
    });
    // Mark all reads the broadcasts too.
    expect((await markRead(m)).json<ReadNotificationsResponse>().unread).toBe(0);
    await call(t.app, t.admin.token, 'POST', '/api/audit/setDefconLevel', { defconLvl: 5, defconMsg: '' });
  });
});

describe('e-mail settings', () => {
  it('round trips per kind, security on by default, and refuses an unknown kind', async () => {
    const m = await registerMember(t.app, 'ntset');
    const got = await call(t.app, m.token, 'GET', '/api/user/notificationSettings');
    expect(got.statusCode, got.body).toBe(200);
    const email = got.json<NotificationSettingsResponse>().settings.email;
    expect(Object.entries(email).filter(([, on]) => on)).toEqual([['security', true]]);
    expect(Object.keys(email)).toHaveLength(10);

    const set = await call(t.app, m.token, 'POST', '/api/user/notificationSettings', {
      email: { transfer_received: true, security: true },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<NotificationSettingsResponse>().message).toBe('Notification settings saved');
    await call(t.app, m.token, 'POST', '/api/user/notificationSettings', { email: { order_filled: true } });
    const again = (
      await call(t.app, m.token, 'GET', '/api/user/notificationSettings')
    ).json<NotificationSettingsResponse>();
    expect(Object.entries(again.settings.email).filter(([, on]) => on)).toEqual([
      ['transfer_received', true],
      ['order_filled', true],
      ['security', true],
    ]);
    const bad = await call(t.app, m.token, 'POST', '/api/user/notificationSettings', { email: { foo: true } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('"email.foo" is not allowed');
  });

  it('declares the scopes: list and read marks take a read key, settings a session', () => {
    const route = (url: string, method = 'POST') => declaredRoutes.find((r) => r.url === url && r.method === method);
    expect(route('/api/user/notifications')?.scope).toBe('read');
    expect(route('/api/user/notifications/read')?.scope).toBe('read');
    expect(route('/api/user/notificationSettings')?.sessionOnly).toBe(true);
    expect(route('/api/user/notificationSettings', 'GET')?.sessionOnly).toBe(true);
    expect(route('/api/audit/broadcast')?.access).toBe('admin');
  });
});

describe('live, on another server process', () => {
  let b: BuiltApp;
  beforeAll(async () => {
    b = await buildApp(testConfig({ DATABASE_URL: testDatabaseUrl(`${TEST_DB_NAME}_${DB}`) }));
    await b.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => b.app.close());

  it('pushes a transfer made on one process and a broadcast to the sockets on the other', async () => {
    const [alice, bob] = await payerAndPayee('ntlive');
    const carol = await registerMember(t.app, 'ntlivec');
    const bobOnB = await LiveSocket.open(b.app);
    bobOnB.send({ type: 'auth', token: bob.token });
    const carolOnB = await LiveSocket.open(b.app);
    carolOnB.send({ type: 'auth', token: carol.token });
    await bobOnB.until((ms) => ms.some((m) => m.type === 'auth'));
    await carolOnB.until((ms) => ms.some((m) => m.type === 'auth'));

    expect((await transfer(alice, bob.nickname, 1, '3', { note: 'live' })).statusCode).toBe(200);
    const pushed = await bobOnB.until((ms) => ms.find((m) => m.type === 'notification'));
    expect(pushed).toMatchObject({
      type: 'notification',
      notification: { kind: 'transfer_received', body: `From ${alice.nickname}: "live"`, read: false },
    });
    expect(pushed.notification).toEqual((await listOk(bob)).notifications[0]);

    expect((await broadcast({ title: 'Live hello', body: 'To all' })).statusCode).toBe(200);
    for (const s of [bobOnB, carolOnB]) {
      await s.until((ms) => ms.some((m) => m.type === 'notification' && m.notification.title === 'Live hello'));
    }
    // Carol was sent nothing else: only the broadcast.
    expect(carolOnB.messages.filter((m) => m.type === 'notification')).toHaveLength(1);
    bobOnB.close();
    carolOnB.close();
  });
});

describe('pruning', () => {
  it('deletes notifications and broadcasts older than 90 days, on one process at a time', async () => {
    const [alice, bob] = await payerAndPayee('ntprune');
    expect((await transfer(alice, bob.nickname, 1, '1')).statusCode).toBe(200);
    expect((await transfer(alice, bob.nickname, 1, '2')).statusCode).toBe(200);
    const [newest, oldest] = (await listOk(bob)).notifications as [Notification, Notification];
    const db = t.built.database.db;
    // Made 91 days ago: its creation time, and its id, which starts with its creation's seconds.
    await db.execute(sql`UPDATE notifications
      SET created_at = now() - interval '91 days',
          id = lpad(to_hex(extract(epoch FROM now() - interval '91 days')::bigint), 8, '0') || substr(id, 9)
      WHERE id = ${oldest._id}`);
    const job = startNotificationPruning(db, t.app.log, 60 * 60 * 1000);
    await job.runNow();
    await job.stop();
    expect((await listOk(bob)).notifications.map((n) => n._id)).toEqual([newest._id]);
  });
});
