/**
 * Notifications from their real triggers (DESIGN §11.3): crossing orders tell the owner of each order they
 * fill, once per placement (order_filled, in part or in full), a forge process is announced when it becomes ready (forge_ready:
 * written at the start for its ready time, seen by no read before, pushed live after, withdrawn by a
 * cancel, settled by a claim), a checkout completed or refunded (checkout_completed, checkout_refunded), the items a package or
 * an opened chip brings (items_received), and the account's security events (security, never mailed
 * again). A refused operation writes none, and a member never reads another's. On a database of its own,
 * so the rows counted are this file's.
 */
import type { Notification, NotificationsResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../src/app.ts';
import { buildApp } from '../src/app.ts';
import { takeDueMails } from '../src/modules/notifications/notifications.queries.ts';
import { buy, publishedPackage } from './checkout.helpers.ts';
import { createMarket, fundedMember, place, placeOk } from './exchange.helpers.ts';
import { type ForgeCurrencies, forgeCalls, forgeCurrencies } from './forge.helpers.ts';
import {
  call,
  expectLedgerBalanced,
  type Member,
  makeAppOnOwnDatabase,
  mint,
  PASSWORD,
  registerMember,
  useTestApp,
} from './helpers.ts';
import { LiveSocket } from './live-socket.ts';
import { codeAt, enrol, wrongCode } from './mfa.helpers.ts';
import { TEST_DB_NAME, testConfig, testDatabaseUrl } from './test-db.ts';

const DB = 'notif_triggers';
const t = useTestApp({}, { build: () => makeAppOnOwnDatabase(DB, { CHIP_SUPPLY: '40' }) });
const CREDITS = 3;
let currencies: ForgeCurrencies;
const forge = forgeCalls(t, () => currencies);
beforeAll(async () => {
  currencies = await forgeCurrencies(t);
});

async function listOk(m: Member): Promise<NotificationsResponse> {
  const res = await call(t.app, m.token, 'POST', '/api/user/notifications', { paging: { limit: 50, page: 1 } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<NotificationsResponse>();
}
/** The member's notifications of `kind`, newest first, as their list shows them. */
async function ofKind(m: Member, kind: string): Promise<Notification[]> {
  return (await listOk(m)).notifications.filter((n) => n.kind === kind);
}
/** Rows written for member `m` (due or not). */
async function rowsOf(m: Member, kind?: string): Promise<number> {
  const onlyKind = kind ? sql` AND kind = ${kind}` : sql``;
  const res = await t.built.database.db.execute(
    sql`SELECT count(*)::int AS n FROM notifications WHERE user_id = ${m.id}${onlyKind}`,
  );
  return (res.rows[0] as { n: number }).n;
}

describe('order_filled', () => {
  it('tells the resting side of each trade, in part then in full; the taker reads it in the answer', async () => {
    const mk = await createMarket(t.app, t.admin);
    const { base, quote } = mk;
    const seller = await fundedMember(t.app, t.admin, { [base.currencyId]: '5' }, 'nfs');
    const buyer = await fundedMember(t.app, t.admin, { [quote.currencyId]: '100' }, 'nfb');
    const other = await fundedMember(t.app, t.admin, { [quote.currencyId]: '100' }, 'nfo');
    await placeOk(t.app, seller, mk.pair._id, false, '5', '2');
    expect(await rowsOf(seller)).toBe(0);

    const bought = await placeOk(t.app, buyer, mk.pair._id, true, '3', '2.5');
    expect(bought.trades).toHaveLength(1);
    expect(bought.message).toContain(`3.00 ${base.ticker} filled at once`);
    expect(await rowsOf(buyer)).toBe(0);
    const pair = `${base.name} → ${quote.name}`;
    expect(await ofKind(seller, 'order_filled')).toEqual([
      expect.objectContaining({
        title: 'Your sell order was filled in part',
        body: `${pair}: you sold 3.00 ${base.ticker} at 2.00 ${quote.ticker}.`,
        link: '/quantumhub',
        read: false,
      }),
    ]);

    // More than `other` holds: refused, and no one hears of anything.
    const refused = await place(t.app, other, mk.pair._id, true, '2', '60');
    expect(refused.statusCode).toBe(409);
    expect(await rowsOf(other)).toBe(0);
    expect(await rowsOf(seller)).toBe(1);

    // `other` rests the rest of its buy; a later sell fills it, and `other` hears of that.
    await placeOk(t.app, other, mk.pair._id, true, '4', '2');
    const [sellerLast] = await ofKind(seller, 'order_filled');
    expect(sellerLast).toMatchObject({
      title: 'Your sell order was filled',
      body: `${pair}: you sold 2.00 ${base.ticker} at 2.00 ${quote.ticker}; the order is filled in full.`,
    });
    expect(await rowsOf(other)).toBe(0);
    const late = await fundedMember(t.app, t.admin, { [base.currencyId]: '2' }, 'nfl');
    await placeOk(t.app, late, mk.pair._id, false, '2', '2');
    expect(await ofKind(other, 'order_filled')).toEqual([
      expect.objectContaining({
        title: 'Your buy order was filled',
        body: `${pair}: you bought 2.00 ${base.ticker} at 2.00 ${quote.ticker}; the order is filled in full.`,
      }),
    ]);
    // A member never reads another's: the buyer's list has only their own, and another's id is refused.
    expect((await listOk(buyer)).notifications.map((n) => n._id)).not.toContain(sellerLast?._id);
    const theirs = await call(t.app, buyer.token, 'POST', '/api/user/notifications/read', { ids: [sellerLast?._id] });
    expect(theirs.statusCode).toBe(404);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('a batch of crossing orders tells each resting order it fills', async () => {
    const mk = await createMarket(t.app, t.admin);
    const sellers = await Promise.all(
      [1, 2, 3].map(() => fundedMember(t.app, t.admin, { [mk.base.currencyId]: '1' }, 'nbs')),
    );
    for (const s of sellers) await placeOk(t.app, s, mk.pair._id, false, '1', '1');
    const buyers = await Promise.all(
      [1, 2, 3].map(() => fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '1' }, 'nbb')),
    );
    // Sent together, they go in one placement batch (group commit).
    const res = await Promise.all(buyers.map((b) => place(t.app, b, mk.pair._id, true, '1', '1')));
    expect(res.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    for (const m of sellers) expect(await rowsOf(m, 'order_filled')).toBe(1);
    for (const m of buyers) expect(await rowsOf(m, 'order_filled')).toBe(0);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('a triggered stop that takes several levels hears once, at the average price; each maker once', async () => {
    const mk = await createMarket(t.app, t.admin);
    const { base, quote } = mk;
    const cheap = await fundedMember(t.app, t.admin, { [base.currencyId]: '1' }, 'nls');
    const dear = await fundedMember(t.app, t.admin, { [base.currencyId]: '3' }, 'nld');
    await placeOk(t.app, cheap, mk.pair._id, false, '1', '1');
    await placeOk(t.app, dear, mk.pair._id, false, '3', '2');
    const stopper = await fundedMember(t.app, t.admin, { [quote.currencyId]: '10' }, 'nlp');
    const stop = await call(t.app, stopper.token, 'POST', '/api/cex/placeOrder', {
      pair: mk.pair._id,
      buySide: true,
      type: 'stop_limit',
      initialAmount: '2',
      price: '2',
      stopPrice: '1',
    });
    expect(stop.statusCode, stop.body).toBe(200);
    expect(await rowsOf(stopper)).toBe(0);

    // A trade at 1.00 triggers the stop: it takes the 0.50 left at 1.00 and 1.50 at 2.00.
    const trigger = await fundedMember(t.app, t.admin, { [quote.currencyId]: '1' }, 'nlt');
    await placeOk(t.app, trigger, mk.pair._id, true, '0.5', '1');
    const pair = `${base.name} → ${quote.name}`;
    // 0.50 x 1.00 + 1.50 x 2.00 = 3.50 for 2.00: an average of 1.75.
    expect(await ofKind(stopper, 'order_filled')).toEqual([
      expect.objectContaining({
        title: 'Your buy order was filled',
        body: `${pair}: you bought 2.00 ${base.ticker} at an average of 1.75 ${quote.ticker}; the order is filled in full.`,
      }),
    ]);
    // `cheap` hears once per round: in part (the trigger's order), then in full (the stop's round).
    expect((await ofKind(cheap, 'order_filled')).map((n) => n.title)).toEqual([
      'Your sell order was filled',
      'Your sell order was filled in part',
    ]);
    expect(await ofKind(dear, 'order_filled')).toEqual([
      expect.objectContaining({
        title: 'Your sell order was filled in part',
        body: `${pair}: you sold 1.50 ${base.ticker} at 2.00 ${quote.ticker}.`,
      }),
    ]);
    expect(await rowsOf(trigger)).toBe(0);
    await expectLedgerBalanced(t.app, t.admin);
  });
});

describe('forge_ready', () => {
  let b: BuiltApp;
  beforeAll(async () => {
    b = await buildApp(testConfig({ DATABASE_URL: testDatabaseUrl(`${TEST_DB_NAME}_${DB}`) }));
    await b.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => b.app.close());

  it('is seen by no read before the process is ready, then is pushed live and listed', async () => {
    const recipe = await forge.createRecipe({ timeRequired: 2, name: 'Quick smelt' });
    const m = await forge.member('30');
    const socket = await LiveSocket.open(b.app);
    socket.send({ type: 'auth', token: m.token });
    await socket.until((ms) => ms.some((x) => x.type === 'auth'));

    const p = await forge.started(m, recipe._id, 2);
    // Written with the start, for the process's ready time: not listed, not counted, not readable.
    expect(await rowsOf(m, 'forge_ready')).toBe(1);
    expect(await listOk(m)).toMatchObject({ notifications: [], total: 0, unread: 0 });
    const early = await call(t.app, m.token, 'POST', '/api/user/notifications/read', { ids: [p._id] });
    expect(early.statusCode).toBe(404);
    expect(socket.messages.filter((x) => x.type === 'notification')).toEqual([]);

    const pushed = await socket.until((ms) => ms.find((x) => x.type === 'notification'));
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(p.finishDate));
    expect(pushed).toMatchObject({
      type: 'notification',
      notification: {
        _id: p._id,
        kind: 'forge_ready',
        title: 'Quick smelt is ready',
        body: `Your forge process Quick smelt x2 is ready: claim 2 ${currencies.ingot.ticker}.`,
        link: '/userbank?tab=forge',
        read: false,
        createdAt: p.finishDate,
      },
    });
    expect((await listOk(m)).notifications).toEqual([pushed.notification]);
    // Pushed once, by whichever process ran the job.
    await new Promise((r) => setTimeout(r, 1500));
    expect(socket.messages.filter((x) => x.type === 'notification')).toHaveLength(1);
    socket.close();
  });

  it('a claim as it comes due settles it: read, not pushed, not mailed', async () => {
    const recipe = await forge.createRecipe({ timeRequired: 3600, name: 'Raced smelt' });
    const m = await forge.member('30');
    const db = t.built.database.db;
    await db.execute(sql`UPDATE users SET is_email_verified = true WHERE id = ${m.id}`);
    const set = await call(t.app, m.token, 'POST', '/api/user/notificationSettings', { email: { forge_ready: true } });
    expect(set.statusCode, set.body).toBe(200);
    const socket = await LiveSocket.open(b.app);
    socket.send({ type: 'auth', token: m.token });
    await socket.until((ms) => ms.some((x) => x.type === 'auth'));

    // Ready now, its notice due a second later: the claim comes before the push, as one in the same second may.
    const p = await forge.started(m, recipe._id, 1);
    await forge.age(p._id, 4000, -1);
    await db.execute(sql`UPDATE notifications SET created_at = now() + interval '1 second' WHERE id = ${p._id}`);
    const claimed = await forge.end(m, p._id, false);
    expect(claimed.statusCode, claimed.body).toBe(200);

    // Past its due time and the push's next tick: listed as read, never pushed, never mailed.
    await new Promise((r) => setTimeout(r, 2500));
    expect(await ofKind(m, 'forge_ready')).toEqual([expect.objectContaining({ _id: p._id, read: true })]);
    expect((await listOk(m)).unread).toBe(0);
    expect(socket.messages.filter((x) => x.type === 'notification')).toEqual([]);
    const taken = await db.transaction((tx) => takeDueMails(tx, 500));
    expect(taken.map((r) => r.user_id)).not.toContain(m.id);
    socket.close();
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('a cancel before it is ready withdraws it; a refused start writes none; the mail job waits for it', async () => {
    const recipe = await forge.createRecipe({ timeRequired: 3600, name: 'Slow smelt' });
    const m = await forge.member('30');
    const p = await forge.started(m, recipe._id, 1);
    expect(await rowsOf(m, 'forge_ready')).toBe(1);
    const cancelled = await forge.end(m, p._id, true);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await rowsOf(m, 'forge_ready')).toBe(0);

    const refused = await forge.start(m, recipe._id, 100);
    expect(refused.statusCode).toBe(409);
    expect(await rowsOf(m, 'forge_ready')).toBe(0);

    // A member who chose forge_ready by e-mail, with a confirmed address: the row waits, not mailed before.
    const db = t.built.database.db;
    await db.execute(sql`UPDATE users SET is_email_verified = true WHERE id = ${m.id}`);
    const set = await call(t.app, m.token, 'POST', '/api/user/notificationSettings', { email: { forge_ready: true } });
    expect(set.statusCode, set.body).toBe(200);
    const later = await forge.started(m, recipe._id, 1);
    const pending = await db.execute(sql`SELECT mail_pending FROM notifications WHERE id = ${later._id}`);
    expect(pending.rows).toEqual([{ mail_pending: true }]);
    const taken = await db.transaction((tx) => takeDueMails(tx, 500));
    expect(taken.map((r) => r.user_id)).not.toContain(m.id);
    // Once ready (time moved), the job takes it.
    await forge.age(later._id, 4000, -1);
    await db.execute(sql`UPDATE notifications SET created_at = now() - interval '1 second' WHERE id = ${later._id}`);
    const now = await db.transaction((tx) => takeDueMails(tx, 500));
    expect(now.filter((r) => r.user_id === m.id)).toHaveLength(1);
    await expectLedgerBalanced(t.app, t.admin);
  });
});

function sandbox(token: string, checkoutId: string, action: string) {
  return call(t.app, token, 'POST', `/api/checkout/sandbox/${checkoutId}/${action}`, {});
}

describe('checkouts and items', () => {
  it('a completed purchase of Credits tells its member; a refund too, once', async () => {
    const pkg = await publishedPackage(t, { name: 'Credits Pack', amount: '1000' });
    const m = await registerMember(t.app, 'nck');
    const bought = await buy(t, m, pkg, 2);
    expect(await rowsOf(m)).toBe(0);
    expect((await sandbox(m.token, bought.checkout._id, 'pay')).json().outcome).toBe('completed');
    expect(await ofKind(m, 'checkout_completed')).toEqual([
      expect.objectContaining({
        title: 'Your purchase is complete',
        body: 'Credits Pack: 1000.00 Credits were added to your balance.',
        link: '/userbank?tab=logs&log=checkout',
      }),
    ]);
    expect(await rowsOf(m, 'items_received')).toBe(0);
    expect((await sandbox(m.token, bought.checkout._id, 'refund')).json().outcome).toBe('resolved');
    expect(await ofKind(m, 'checkout_refunded')).toEqual([
      expect.objectContaining({
        title: 'Your purchase was refunded',
        body: 'Credits Pack: the payment was refunded; 1000.00 Credits were taken back.',
      }),
    ]);
    // The same refund again takes nothing more and tells nothing more.
    expect((await sandbox(m.token, bought.checkout._id, 'refund')).json().outcome).toBe('resolved');
    expect(await rowsOf(m, 'checkout_refunded')).toBe(1);
    expect(await rowsOf(m)).toBe(2);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('a package with items tells of the purchase and of the items', async () => {
    const pkg = await publishedPackage(t, {
      name: 'Pilot Bundle',
      amount: '500',
      items: [
        { type: 1, amount: 2 },
        { type: 2, amount: 1 },
      ],
    });
    const m = await registerMember(t.app, 'nci');
    const bought = await buy(t, m, pkg, 2);
    expect((await sandbox(m.token, bought.checkout._id, 'pay')).json().outcome).toBe('completed');
    expect(await ofKind(m, 'items_received')).toEqual([
      expect.objectContaining({
        title: 'You received items',
        body: 'Pilot Bundle brought you 2 synth chips and 1 ship.',
        link: '/userbank',
      }),
    ]);
    expect(await rowsOf(m, 'checkout_completed')).toBe(1);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('opening synth chips tells of the ships; an opening refused tells nothing', async () => {
    const m = await registerMember(t.app, 'nch');
    await mint(t.app, t.admin, m.nickname, CREDITS, '500');
    const bought = await call(t.app, m.token, 'POST', '/api/inventory/buySynthChips', { amount: 1 });
    expect(bought.statusCode, bought.body).toBe(200);
    const tooMany = await call(t.app, m.token, 'POST', '/api/inventory/openSynthChips', { amount: 2 });
    expect(tooMany.statusCode).toBe(409);
    expect(await rowsOf(m)).toBe(0);
    const opened = await call(t.app, m.token, 'POST', '/api/inventory/openSynthChips', { amount: 1 });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(await ofKind(m, 'items_received')).toEqual([
      expect.objectContaining({
        title: 'You received 5 ships',
        body: 'Opening 1 Alpha synth chip(s) brought you 5 Alpha ships.',
      }),
    ]);
    await expectLedgerBalanced(t.app, t.admin);
  });
});

describe('security', () => {
  const CHROME_LINUX =
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

  it('a password change and a sign-in from a new device write one each, never to be mailed again', async () => {
    const m = await registerMember(t.app, 'nsec');
    expect(await rowsOf(m)).toBe(0);
    const wrong = await call(t.app, m.token, 'POST', '/api/user/updateProfile', {
      password: 'N3w!Passw0rd-x',
      currentPassword: 'not-the-password-1A!',
    });
    expect(wrong.statusCode).not.toBe(200);
    expect(await rowsOf(m)).toBe(0);

    const res = await call(
      t.app,
      m.token,
      'POST',
      '/api/user/updateProfile',
      { password: 'N3w!Passw0rd-x', currentPassword: PASSWORD },
      { 'user-agent': CHROME_LINUX },
    );
    expect(res.statusCode, res.body).toBe(200);
    const token = res.json<{ token: string }>().token;
    const [changed] = await ofKind({ ...m, token }, 'security');
    expect(changed).toMatchObject({ title: 'Your password was changed', link: '/userconfig#sessions' });
    expect(changed?.body).toMatch(
      /^The password of your account was changed\. On \d{4}-\d\d-\d\d \d\d:\d\d UTC from 127\.0\.0\.1 \(Chrome 131 on Linux\)\./,
    );

    const login = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { nickOrEmail: m.nickname, password: 'N3w!Passw0rd-x' },
      headers: { 'user-agent': CHROME_LINUX },
      remoteAddress: '203.0.113.9',
    });
    expect(login.statusCode, login.body).toBe(200);
    const [signIn] = await ofKind({ ...m, token }, 'security');
    expect(signIn).toMatchObject({ title: 'New sign-in to your account' });
    expect(signIn?.body).toContain('from 203.0.113.9 (Chrome 131 on Linux)');
    // The same device and address again: nothing more.
    await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { nickOrEmail: m.nickname, password: 'N3w!Passw0rd-x' },
      headers: { 'user-agent': CHROME_LINUX },
      remoteAddress: '203.0.113.9',
    });
    expect(await rowsOf(m, 'security')).toBe(2);
    // Their mails went from the users module: none waits in the notification mails.
    const pending = await t.built.database.db.execute(
      sql`SELECT count(*)::int AS n FROM notifications WHERE user_id = ${m.id} AND mail_pending`,
    );
    expect(pending.rows).toEqual([{ n: 0 }]);
  });

  it('two-factor turned off and an API key made write one each; a wrong code writes none', async () => {
    const m = await registerMember(t.app, 'nsmfa');
    const { secret } = await enrol(t.app, m.token);
    const wrong = await call(t.app, m.token, 'POST', '/api/user/mfa/totp/disable', { code: await wrongCode(secret) });
    expect(wrong.statusCode).toBe(400);
    expect(await rowsOf(m)).toBe(0);
    const off = await call(t.app, m.token, 'POST', '/api/user/mfa/totp/disable', { code: await codeAt(secret) });
    expect(off.statusCode, off.body).toBe(200);
    expect(await ofKind(m, 'security')).toEqual([
      expect.objectContaining({
        title: 'Two-factor authentication was turned off',
        body: expect.stringContaining('a password alone now signs in'),
      }),
    ]);
    const key = await call(t.app, m.token, 'POST', '/api/user/apiKeys/create', { name: 'bot', scopes: ['read'] });
    expect(key.statusCode, key.body).toBe(200);
    const [made] = await ofKind(m, 'security');
    expect(made).toMatchObject({ title: 'An API key was made', link: '/userconfig#sessions' });
    expect(made?.body).toContain('An API key (bot) was made for your account.');
    expect(await rowsOf(m)).toBe(2);
  });
});
