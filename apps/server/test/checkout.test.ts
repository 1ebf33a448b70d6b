/**
 * The Credits store with the built-in sandbox provider (DESIGN §7): admins run packages;
 * a member buys one, the sandbox page's Pay completes it and mints the Credits once however often it is
 * pressed, Fail cancels it with nothing credited; another member's checkout is not found; the lists and
 * the ledger's conservation hold.
 */
import type { CheckoutPackage, CheckoutsResponse, PackagesResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buy, checkoutOf, publishedPackage } from './checkout.helpers.ts';
import { balanceOf, call, expectLedgerBalanced, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();
const CREDITS = 3;

async function onSale(token?: string): Promise<CheckoutPackage[]> {
  const res = await call(t.app, token, 'GET', '/api/checkout/packages/fetch');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<PackagesResponse>().packages;
}

function sandbox(token: string, checkoutId: string, action: string) {
  return call(t.app, token, 'POST', `/api/checkout/sandbox/${checkoutId}/${action}`, {});
}

describe('packages', () => {
  it('an admin creates a package (unpublished), publishes it once, takes it off sale and deletes it', async () => {
    const created = await call(t.app, t.admin.token, 'POST', '/api/checkout/packages/create', {
      name: 'Big Credits',
      description: 'Five thousand Credits at once',
      cost: 39.5,
      amount: 5000,
      items: [{ type: 1, amount: 2 }],
    });
    expect(created.statusCode, created.body).toBe(200);
    const pkg = created.json<{ package: CheckoutPackage }>().package;
    expect(pkg).toMatchObject({
      cost: '39.50',
      currency: { currencyId: 3, amount: '5000.00' },
      amount: '5000.00',
      items: [{ type: 1, amount: 2 }],
      active: true,
      published: false,
    });
    expect((await onSale()).some((p) => p._id === pkg._id)).toBe(false);
    expect((await onSale(t.admin.token)).some((p) => p._id === pkg._id)).toBe(true);

    const publish = () => call(t.app, t.admin.token, 'POST', '/api/checkout/packages/publish', { objectId: pkg._id });
    expect((await publish()).json()).toMatchObject({ package: { published: true }, message: 'Package published' });
    const again = await publish();
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Package already published');
    expect((await onSale()).some((p) => p._id === pkg._id)).toBe(true);

    const off = await call(t.app, t.admin.token, 'POST', '/api/checkout/packages/setactive', {
      objectId: pkg._id,
      flag: false,
    });
    expect(off.json()).toMatchObject({ package: { active: false, published: true }, message: 'Package deactivated' });
    expect((await onSale()).some((p) => p._id === pkg._id)).toBe(false);

    const del = await call(t.app, t.admin.token, 'POST', '/api/checkout/packages/delete', { objectId: pkg._id });
    expect(del.json().message).toBe('Package deleted');
    expect((await onSale(t.admin.token)).some((p) => p._id === pkg._id)).toBe(false);
    const logs = await t.built.database.db.execute<{ category: number }>(
      sql`SELECT category FROM admin_logs WHERE action LIKE ${`%${pkg._id}%`} ORDER BY created_at`,
    );
    expect(logs.rows.map((r) => Number(r.category))).toEqual([7, 9, 10, 8]);
  });

  it.each([
    [{ cost: '1.999' }, '"cost" contains an invalid value'],
    [{ cost: 0 }, '"cost" contains an invalid value'],
    [{ amount: 0 }, 'Amount must be at least 0.01'],
    [{ currency: 2 }, '"currency" contains an invalid value'],
    [{ items: [{ type: 3, amount: 1 }] }, '"items.0.type" contains an invalid value'],
    [{ items: [{ type: 1, amount: 0 }] }, '"items.0.amount" contains an invalid value'],
    [{ name: undefined }, '"name" is required'],
  ])('refuses %j with %s', async (overrides, message) => {
    const res = await call(t.app, t.admin.token, 'POST', '/api/checkout/packages/create', {
      name: 'Bad package',
      description: 'A package that should not exist',
      cost: '5.00',
      amount: '100',
      ...overrides,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('only admins manage packages and read every checkout: a member gets 403, a visitor 401', async () => {
    const m = await registerMember(t.app, 'pkgnon');
    const pkg = await publishedPackage(t);
    const calls: Array<[string, Record<string, unknown>]> = [
      ['/api/checkout/packages/create', { name: 'x', description: 'y', cost: 1, amount: 1 }],
      ['/api/checkout/packages/delete', { objectId: pkg._id }],
      ['/api/checkout/packages/publish', { objectId: pkg._id }],
      ['/api/checkout/packages/setactive', { objectId: pkg._id, flag: false }],
      ['/api/checkout/getAllTransactions', { paging: { limit: 10, page: 1 } }],
    ];
    for (const [url, body] of calls) {
      expect((await call(t.app, m.token, 'POST', url, body)).statusCode, url).toBe(403);
      expect((await call(t.app, undefined, 'POST', url, body)).statusCode, url).toBe(401);
    }
    const buyAnon = await call(t.app, undefined, 'POST', '/api/checkout/buyPackage', {
      packageId: pkg._id,
      providerId: 2,
    });
    expect(buyAnon.statusCode).toBe(401);
  });
});

describe('buying through the sandbox', () => {
  it('Pay completes the checkout and mints the Credits once, however often it is pressed', async () => {
    const m = await registerMember(t.app, 'buyer');
    const pkg = await publishedPackage(t, { amount: '1250' });
    const bought = await buy(t, m, pkg, 2);
    expect(bought.link).toBe(`/checkout/sandbox/${bought.checkout._id}`);
    expect(bought.checkout).toMatchObject({
      user: { nickname: m.nickname },
      package: { _id: pkg._id, name: pkg.name, cost: '9.99' },
      checkoutProvider: 2,
      refId: `sbx_${bought.checkout._id}`,
      state: 1,
      eventHistory: [],
    });
    const presses = await Promise.all([1, 2, 3].map(() => sandbox(m.token, bought.checkout._id, 'pay')));
    expect(presses.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(presses.map((r) => r.json().outcome).sort()).toEqual(['completed', 'ignored', 'ignored']);
    expect(await balanceOf(t.app, m, CREDITS)).toBe('1250');
    const after = await checkoutOf(t, m, bought.checkout._id);
    expect(after?.state).toBe(9);
    expect(after?.eventHistory.map((e) => e.eventType)).toEqual(['sandbox.pay', 'sandbox.pay', 'sandbox.pay']);
    const minted = await t.built.database.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM bank_transactions WHERE reference = ${bought.checkout._id} AND category = 12`,
    );
    expect(Number(minted.rows[0]?.n)).toBe(1);
  });

  it('Fail cancels with nothing credited; Delay then Pay completes', async () => {
    const m = await registerMember(t.app, 'failer');
    const pkg = await publishedPackage(t);
    const failed = await buy(t, m, pkg, 1);
    const res = await sandbox(m.token, failed.checkout._id, 'fail');
    expect(res.json()).toMatchObject({ outcome: 'cancelled', message: 'Payment failed: nothing was charged' });
    expect((await checkoutOf(t, m, failed.checkout._id))?.state).toBe(8);
    expect(await balanceOf(t.app, m, CREDITS)).toBe('0');

    const delayed = await buy(t, m, pkg, 1);
    expect((await sandbox(m.token, delayed.checkout._id, 'delay')).json().outcome).toBe('delayed');
    expect((await checkoutOf(t, m, delayed.checkout._id))?.state).toBe(5);
    expect((await sandbox(m.token, delayed.checkout._id, 'pay')).json().outcome).toBe('completed');
    expect(await balanceOf(t.app, m, CREDITS)).toBe('1000');
  });

  it("another member cannot press the sandbox's buttons on a checkout, nor list it", async () => {
    const owner = await registerMember(t.app, 'owner');
    const other = await registerMember(t.app, 'other');
    const pkg = await publishedPackage(t);
    const bought = await buy(t, owner, pkg, 2);
    const res = await sandbox(other.token, bought.checkout._id, 'pay');
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Checkout not found');
    expect(await balanceOf(t.app, other, CREDITS)).toBe('0');
    expect(await balanceOf(t.app, owner, CREDITS)).toBe('0');
    const list = await call(t.app, other.token, 'POST', '/api/checkout/getTransactions', {
      paging: { limit: 10, page: 1 },
    });
    expect(list.json<CheckoutsResponse>()).toMatchObject({ transactions: [], total: 0, message: 'No logs found' });
    expect((await sandbox(owner.token, bought.checkout._id, 'nonsense')).statusCode).toBe(400);
  });

  it('an unpublished, inactive or unknown package cannot be bought', async () => {
    const m = await registerMember(t.app, 'nobuy');
    const draft = await call(t.app, t.admin.token, 'POST', '/api/checkout/packages/create', {
      name: 'Draft',
      description: 'Not on sale yet at all',
      cost: '1.00',
      amount: '10',
    });
    const draftId = draft.json<{ package: CheckoutPackage }>().package._id;
    for (const packageId of [draftId, '0123456789abcdef01234567']) {
      const res = await call(t.app, m.token, 'POST', '/api/checkout/buyPackage', { packageId, providerId: 2 });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Package not found');
    }
    const bad = await call(t.app, m.token, 'POST', '/api/checkout/buyPackage', { packageId: draftId, providerId: 3 });
    expect(bad.json().message).toBe('"providerId" contains an invalid value');
  });

  it('the admin lists every checkout with filters; the ledger stays conserved', async () => {
    const m = await registerMember(t.app, 'listed');
    const pkg = await publishedPackage(t);
    const a = await buy(t, m, pkg, 2);
    await buy(t, m, pkg, 1);
    await sandbox(m.token, a.checkout._id, 'pay');
    const all = (filters: Record<string, unknown>) =>
      call(t.app, t.admin.token, 'POST', '/api/checkout/getAllTransactions', {
        paging: { limit: 50, page: 1 },
        filters,
      });
    expect((await all({ nickname: m.nickname })).json<CheckoutsResponse>().total).toBe(2);
    const done = (await all({ nickname: m.nickname, state: 9 })).json<CheckoutsResponse>();
    expect(done.transactions.map((c) => c._id)).toEqual([a.checkout._id]);
    expect((await all({ nickname: m.nickname, checkoutProvider: 1 })).json<CheckoutsResponse>().total).toBe(1);
    expect((await all({ refId: `sbx_${a.checkout._id}` })).json<CheckoutsResponse>().total).toBe(1);
    expect((await all({ package: pkg._id })).json<CheckoutsResponse>().total).toBe(2);
    await expectLedgerBalanced(t.app, t.admin);
  });
});
