/**
 * A package's items (DESIGN §7): a completed checkout grants its synth chips (type 1, moved
 * from the sale's supply) and ships (type 2, drawn into Alpha Ships) exactly once, however often it is
 * paid; a full refund gives back the chips still held and removes the ships still owned; a partial
 * refund takes back Credits only; a sold-out sale grants what it has and records the rest as owed.
 * Its own database: the last case empties the sale.
 */
import type { CheckoutPackage, SynthChipsResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buy, publishedPackage } from './checkout.helpers.ts';
import {
  balanceOf,
  call,
  expectLedgerBalanced,
  type Member,
  makeAppOnOwnDatabase,
  registerMember,
  useTestApp,
} from './helpers.ts';

const t = useTestApp({}, { build: () => makeAppOnOwnDatabase('checkout_items', { CHIP_SUPPLY: '40' }) });
const CREDITS = 3;

async function sale(): Promise<SynthChipsResponse> {
  const res = await call(t.app, undefined, 'GET', '/api/inventory/synthChips');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SynthChipsResponse>();
}

function sandbox(token: string, checkoutId: string, action: string) {
  return call(t.app, token, 'POST', `/api/checkout/sandbox/${checkoutId}/${action}`, {});
}

/** The member's items as getUserItems lists them. */
async function itemsOf(m: Member): Promise<Array<{ name: string; itemCollection: string }>> {
  const res = await call(t.app, m.token, 'POST', '/api/inventory/getUserItems', { paging: { limit: 50, page: 1 } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

async function checkoutRow(id: string) {
  const res = await t.built.database.db.execute<{ chips_granted: number; chips_owed: number; state: number }>(
    sql`SELECT chips_granted, chips_owed, state FROM checkout_transactions WHERE id = ${id}`,
  );
  return res.rows[0];
}

describe('package items', () => {
  let pkg: CheckoutPackage;

  it('Pay grants the chips and ships once, even pressed three times at once', async () => {
    pkg = await publishedPackage(t, {
      name: 'Pilot Bundle',
      amount: '500',
      items: [
        { type: 1, amount: 3 },
        { type: 2, amount: 2 },
      ],
    });
    const { currencyId, remaining } = await sale();
    const m = await registerMember(t.app, 'bundle');
    const bought = await buy(t, m, pkg, 2);
    const presses = await Promise.all([1, 2, 3].map(() => sandbox(m.token, bought.checkout._id, 'pay')));
    expect(presses.map((r) => r.json().outcome).sort()).toEqual(['completed', 'ignored', 'ignored']);

    expect(await balanceOf(t.app, m, CREDITS)).toBe('500');
    expect(await balanceOf(t.app, m, currencyId)).toBe('3');
    expect((await sale()).remaining).toBe(remaining - 3);
    const items = await itemsOf(m);
    expect(items).toHaveLength(2);
    const collections = await call(t.app, undefined, 'POST', '/api/inventory/getCollections', {});
    const ships = collections.json().data.find((c: { name: string }) => c.name === 'Alpha Ships');
    for (const i of items) {
      expect(i.name).toMatch(/^Alpha /);
      expect(i.itemCollection).toBe(ships._id);
    }
    expect(await checkoutRow(bought.checkout._id)).toMatchObject({ chips_granted: 3, chips_owed: 0, state: 9 });
    const chipRows = await t.built.database.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM bank_transactions WHERE reference = ${bought.checkout._id} AND category = 3`,
    );
    expect(Number(chipRows.rows[0]?.n)).toBe(1);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('a full refund takes back the chips still held and the ships still owned, once', async () => {
    const { currencyId, remaining } = await sale();
    const m = await registerMember(t.app, 'refunded');
    const bought = await buy(t, m, pkg, 2);
    await sandbox(m.token, bought.checkout._id, 'pay');
    // The member opens one of the three chips: its five ships are theirs, not the package's.
    const opened = await call(t.app, m.token, 'POST', '/api/inventory/openSynthChips', { amount: 1 });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(await itemsOf(m)).toHaveLength(7);

    expect((await sandbox(m.token, bought.checkout._id, 'refund')).json().outcome).toBe('resolved');
    expect(await balanceOf(t.app, m, CREDITS)).toBe('0');
    expect(await balanceOf(t.app, m, currencyId)).toBe('0');
    // Two chips went back on sale; the opened one stays burned.
    expect((await sale()).remaining).toBe(remaining - 1);
    expect(await itemsOf(m)).toHaveLength(5);
    expect((await checkoutRow(bought.checkout._id))?.state).toBe(6);

    // A second refund event changes nothing more.
    expect((await sandbox(m.token, bought.checkout._id, 'refund')).json().outcome).toBe('resolved');
    expect((await sale()).remaining).toBe(remaining - 1);
    expect(await itemsOf(m)).toHaveLength(5);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('a package of ships only needs no chips; another member sees none of them', async () => {
    const shipsOnly = await publishedPackage(t, { name: 'Hangar', amount: '10', items: [{ type: 2, amount: 4 }] });
    const { remaining } = await sale();
    const m = await registerMember(t.app, 'hangar');
    const other = await registerMember(t.app, 'hangarx');
    const bought = await buy(t, m, shipsOnly, 1);
    await sandbox(m.token, bought.checkout._id, 'pay');
    expect(await itemsOf(m)).toHaveLength(4);
    expect(await itemsOf(other)).toHaveLength(0);
    expect((await sale()).remaining).toBe(remaining);
  });

  it('a sold-out sale grants what it holds and records the rest as owed', async () => {
    const { currencyId, remaining } = await sale();
    const big = await publishedPackage(t, {
      name: 'Chip Crate',
      amount: '10',
      items: [{ type: 1, amount: remaining + 2 }],
    });
    const m = await registerMember(t.app, 'crate');
    const bought = await buy(t, m, big, 2);
    expect((await sandbox(m.token, bought.checkout._id, 'pay')).json().outcome).toBe('completed');
    expect(await balanceOf(t.app, m, CREDITS)).toBe('10');
    expect(await balanceOf(t.app, m, currencyId)).toBe(String(remaining));
    expect(await sale()).toMatchObject({ remaining: 0, message: 'All Sold Out' });
    expect(await checkoutRow(bought.checkout._id)).toMatchObject({ chips_granted: remaining, chips_owed: 2 });
    await expectLedgerBalanced(t.app, t.admin);
  });
});
