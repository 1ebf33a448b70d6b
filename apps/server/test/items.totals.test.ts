/**
 * A collection's item totals are kept until its items change (items.totals.ts). What a member
 * must never notice: an item added to a collection (by its creator, or a ship from opened chips) counts at
 * once on the server that added it and within the live feed's lag on another server; each page start has
 * its own total; another collection's change leaves a collection's total alone.
 */
import type { ItemsResponse, OpenSynthChipsResponse, OwnCollection } from '@starlight/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../src/app.ts';
import {
  call,
  eventually,
  expectLedgerBalanced,
  type Member,
  makeApp,
  makeAppOnOwnDatabase,
  mint,
  registerMember,
  useTestApp,
  withRole,
} from './helpers.ts';
import { TEST_DB_NAME, testDatabaseUrl } from './test-db.ts';

// A database of its own: opening chips needs chips for sale, and other files sell the shared sale out.
const OWN = 'items_totals';
const t = useTestApp({}, { build: () => makeAppOnOwnDatabase(OWN) });
const CREDITS = 3;

async function total(app: BuiltApp['app'], m: Member, collectionId: string, page = 1): Promise<number> {
  const res = await call(app, m.token, 'POST', '/api/inventory/getItems', {
    itemCollection: collectionId,
    paging: { page, limit: 5 },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ItemsResponse>().total;
}

describe('kept collection totals', () => {
  let b: BuiltApp;
  let creator: Member;
  let member: Member;
  beforeAll(async () => {
    b = await makeApp({ DATABASE_URL: testDatabaseUrl(`${TEST_DB_NAME}_${OWN}`) });
    creator = await withRole(t.built, await registerMember(t.app, 'ktmaker'), 'creator');
    member = await registerMember(t.app, 'ktholder');
  });
  afterAll(() => b.app.close());

  async function collectionWith(app: BuiltApp['app'], count: number): Promise<OwnCollection> {
    const res = await call(app, creator.token, 'POST', '/api/inventory/createCollection', { name: 'Kept Fleet' });
    expect(res.statusCode, res.body).toBe(200);
    const collection = res.json<{ collection: OwnCollection }>().collection;
    for (let i = 0; i < count; i++) await addItem(app, collection);
    return collection;
  }

  async function addItem(app: BuiltApp['app'], collection: OwnCollection): Promise<void> {
    const res = await call(app, creator.token, 'POST', '/api/inventory/createItem', {
      itemCollection: collection._id,
      owner: member.nickname,
      name: 'Skiff',
    });
    expect(res.statusCode, res.body).toBe(200);
  }

  it("count a creator's new item at once where it was added, and soon on another server", async () => {
    const fleet = await collectionWith(t.app, 3);
    const other = await collectionWith(t.app, 1);
    // Both servers answer (and keep) the totals, page 2 its own.
    expect(await total(t.app, member, fleet._id)).toBe(3);
    expect(await total(b.app, member, fleet._id)).toBe(3);
    expect(await total(t.app, member, fleet._id, 2)).toBe(3);

    // Another collection's change leaves this one's total as it is (and right).
    await addItem(t.app, other);
    expect(await total(t.app, member, fleet._id)).toBe(3);
    expect(await total(t.app, member, other._id)).toBe(2);

    // Added on A: A counts it at once, on every page; B within the feed's lag.
    await addItem(t.app, fleet);
    expect(await total(t.app, member, fleet._id)).toBe(4);
    expect(await total(t.app, member, fleet._id, 2)).toBe(4);
    expect(
      await eventually(
        () => total(b.app, member, fleet._id),
        (n) => n === 4,
      ),
    ).toBe(4);

    // Added on B: B at once, A soon.
    await addItem(b.app, fleet);
    expect(await total(b.app, member, fleet._id)).toBe(5);
    expect(
      await eventually(
        () => total(t.app, member, fleet._id),
        (n) => n === 5,
      ),
    ).toBe(5);
  });

  it('count the ships of opened chips at once', async () => {
    const opener = await registerMember(t.app, 'ktopen');
    await mint(t.app, t.admin, opener.nickname, CREDITS, '500');
    const bought = await call(t.app, opener.token, 'POST', '/api/inventory/buySynthChips', { amount: 1 });
    expect(bought.statusCode, bought.body).toBe(200);
    const first = await call(t.app, opener.token, 'POST', '/api/inventory/openSynthChips', { amount: 1 });
    expect(first.statusCode, first.body).toBe(200);
    const ships = first.json<OpenSynthChipsResponse>().createdItems;
    const shipsCollection = ships[0]?.itemCollection ?? '';
    const before = await total(t.app, member, shipsCollection);
    const onB = await total(b.app, member, shipsCollection);

    await mint(t.app, t.admin, opener.nickname, CREDITS, '500');
    expect((await call(t.app, opener.token, 'POST', '/api/inventory/buySynthChips', { amount: 1 })).statusCode).toBe(
      200,
    );
    const opened = await call(t.app, opener.token, 'POST', '/api/inventory/openSynthChips', { amount: 1 });
    expect(opened.statusCode, opened.body).toBe(200);
    const more = opened.json<OpenSynthChipsResponse>().createdItems.length;
    expect(more).toBeGreaterThan(0);
    expect(await total(t.app, member, shipsCollection)).toBe(before + more);
    expect(
      await eventually(
        () => total(b.app, member, shipsCollection),
        (n) => n === onB + more,
      ),
    ).toBe(onB + more);
    await expectLedgerBalanced(t.app, t.admin);
  });
});
