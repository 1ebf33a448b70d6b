/**
 * Gifts (DESIGN §11.5 `giftItem`): a member sends one of their items to another by nickname; the item
 * changes owner and only the recipient gets an `items_received` notification. Every refusal (an unknown
 * item, another's item, an unknown or inactive recipient, oneself, a system account) says why and
 * changes nothing; two gifts of one item at once move it once.
 */
import type { GroupedItemsResponse, Item, ItemsResponse, NotificationsResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { declaredRoutes } from '../src/http/access.ts';
import { SALE_NICKNAME } from '../src/modules/accounts/accounts.public.ts';
import { call, type Member, registerMember, useTestApp } from './helpers.ts';
import { newCreatorCollection } from './market.helpers.ts';

const t = useTestApp();
let creator: Member;
let collectionId: string;

const UNKNOWN_ID = 'ffffffffffffffffffffffff';

beforeAll(async () => {
  let collection: { _id: string };
  ({ creator, collection } = await newCreatorCollection(t, 'giftmaker', 'Gift Fleet'));
  collectionId = collection._id;
});

/** A new item named `name` owned by `owner`. */
async function itemOf(owner: Member, name = 'Falcon'): Promise<Item> {
  const res = await call(t.app, creator.token, 'POST', '/api/inventory/createItem', {
    itemCollection: collectionId,
    owner: owner.nickname,
    name,
    description: 'A ship given away',
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ item: Item }>().item;
}

const gift = (by: Member | undefined, body: Record<string, unknown>) =>
  call(t.app, by?.token, 'POST', '/api/inventory/giftItem', body);

/** The names of the items `m` owns, as their list shows them (its total agreeing). */
async function namesOf(m: Member): Promise<string[]> {
  const res = await call(t.app, m.token, 'POST', '/api/inventory/getUserItems', { paging: { page: 1, limit: 50 } });
  expect(res.statusCode, res.body).toBe(200);
  const { data, total } = res.json<ItemsResponse>();
  expect(total).toBe(data.length);
  return data.map((i) => i.name);
}

async function notificationsOf(m: Member): Promise<NotificationsResponse> {
  const res = await call(t.app, m.token, 'POST', '/api/user/notifications', { paging: { page: 1, limit: 50 } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<NotificationsResponse>();
}

async function ownerOf(itemId: string): Promise<string> {
  const res = await t.built.database.db.execute<{ owner_id: string }>(
    sql`SELECT owner_id FROM items WHERE id = ${itemId}`,
  );
  return res.rows[0]?.owner_id ?? 'none';
}

/** How many notifications the members of `nicknames` have (other test files write others' at once). */
async function notificationRows(nicknames: string[]): Promise<number> {
  const res = await t.built.database.db.execute<{ n: number }>(sql`
    SELECT count(*)::int AS n FROM notifications n JOIN users u ON u.id = n.user_id
    WHERE lower(u.nickname) IN (${sql.join(
      nicknames.map((k) => sql`${k.toLowerCase()}`),
      sql`, `,
    )})`);
  return res.rows[0]?.n ?? 0;
}

describe('giftItem', () => {
  it('is a member route a key needs the transfer scope for', () => {
    const route = declaredRoutes.find((r) => r.url === '/api/inventory/giftItem');
    expect(route).toMatchObject({ method: 'POST', access: 'member', scope: 'transfer' });
  });

  it('moves the item to the recipient and notifies only them', async () => {
    const alice = await registerMember(t.app, 'giver');
    const bob = await registerMember(t.app, 'taker');
    const item = await itemOf(alice, 'Falcon');
    await itemOf(alice, 'Kestrel');
    // Read once, so the kept totals hold the counts from before the gift.
    expect(await namesOf(alice)).toEqual(['Kestrel', 'Falcon']);
    expect(await namesOf(bob)).toEqual([]);

    const res = await gift(alice, { itemId: item._id, recipientNickName: bob.nickname.toUpperCase() });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: `Gifted Falcon to ${bob.nickname}` });

    expect(await namesOf(alice)).toEqual(['Kestrel']);
    expect(await namesOf(bob)).toEqual(['Falcon']);
    const grouped = await call(t.app, bob.token, 'POST', '/api/inventory/getUserItemsGrouped', {
      filters: { itemCollection: collectionId },
      paging: { page: 1, limit: 10 },
    });
    expect(grouped.json<GroupedItemsResponse>().data).toMatchObject([{ itemId: item._id, name: 'Falcon', count: 1 }]);

    const bobs = await notificationsOf(bob);
    expect(bobs.notifications).toMatchObject([
      {
        kind: 'items_received',
        title: 'You received Falcon',
        body: `A gift from ${alice.nickname}`,
        link: '/userbank?tab=bank&holdings=items',
        read: false,
      },
    ]);
    expect((await notificationsOf(alice)).notifications.filter((n) => n.kind === 'items_received')).toEqual([]);
    expect((await notificationsOf(creator)).notifications.filter((n) => n.kind === 'items_received')).toEqual([]);
  });

  it('the recipient can gift it on, and the first owner can no longer', async () => {
    const a = await registerMember(t.app, 'chain');
    const b = await registerMember(t.app, 'chain');
    const c = await registerMember(t.app, 'chain');
    const item = await itemOf(a, 'Osprey');
    expect((await gift(a, { itemId: item._id, recipientNickName: b.nickname })).statusCode).toBe(200);
    const again = await gift(a, { itemId: item._id, recipientNickName: c.nickname });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: 'Item not found' });
    expect((await gift(b, { itemId: item._id, recipientNickName: c.nickname })).statusCode).toBe(200);
    expect(await namesOf(c)).toEqual(['Osprey']);
    expect(await namesOf(a)).toEqual([]);
    expect(await namesOf(b)).toEqual([]);
  });

  describe('refusals change nothing', () => {
    let owner: Member;
    let other: Member;
    let item: Item;
    let othersItem: Item;
    let inactive: Member;

    beforeAll(async () => {
      owner = await registerMember(t.app, 'keeper');
      other = await registerMember(t.app, 'other');
      inactive = await registerMember(t.app, 'gone');
      await t.built.database.db.execute(sql`UPDATE users SET is_active = false WHERE id = ${inactive.id}`);
      item = await itemOf(owner, 'Heron');
      othersItem = await itemOf(other, 'Swift');
    });

    it.each([
      ['an unknown item', () => ({ itemId: UNKNOWN_ID, recipientNickName: other.nickname }), 404, 'Item not found'],
      [
        "another member's item (told apart from an unknown one to no one)",
        () => ({ itemId: othersItem._id, recipientNickName: owner.nickname }),
        404,
        'Item not found',
      ],
      [
        'an unknown recipient (as a transfer says)',
        () => ({ itemId: item._id, recipientNickName: 'nobodyhere404' }),
        404,
        'Recipient not found',
      ],
      [
        'an inactive recipient (as a transfer says)',
        () => ({ itemId: item._id, recipientNickName: inactive.nickname }),
        404,
        'Recipient not found',
      ],
      [
        'oneself',
        () => ({ itemId: item._id, recipientNickName: owner.nickname }),
        400,
        'You cannot gift an item to yourself',
      ],
      [
        'a system account',
        () => ({ itemId: item._id, recipientNickName: SALE_NICKNAME }),
        400,
        `You cannot gift to ${SALE_NICKNAME}: it is a system account`,
      ],
      [
        'a malformed item id',
        () => ({ itemId: 'short', recipientNickName: other.nickname }),
        400,
        '"itemId" contains an invalid value',
      ],
      ['a missing recipient', () => ({ itemId: item._id }), 400, '"recipientNickName" is required'],
    ])('refuses %s', async (_what, body, status, message) => {
      const everyone = [owner.nickname, other.nickname, inactive.nickname, SALE_NICKNAME];
      const before = await notificationRows(everyone);
      const res = await gift(owner, body());
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toMatchObject({ message });
      expect(await ownerOf(item._id)).toBe(owner.id);
      expect(await ownerOf(othersItem._id)).toBe(other.id);
      expect(await namesOf(owner)).toEqual(['Heron']);
      expect(await namesOf(other)).toEqual(['Swift']);
      expect(await notificationRows(everyone)).toBe(before);
    });

    it('a visitor gets 401 and nothing moves', async () => {
      const res = await gift(undefined, { itemId: item._id, recipientNickName: other.nickname });
      expect(res.statusCode).toBe(401);
      expect(await ownerOf(item._id)).toBe(owner.id);
    });
  });

  it('two gifts of one item at once move it once, with one notification', async () => {
    const from = await registerMember(t.app, 'race');
    const to1 = await registerMember(t.app, 'race');
    const to2 = await registerMember(t.app, 'race');
    const item = await itemOf(from, 'Raven');
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        gift(from, { itemId: item._id, recipientNickName: (i % 2 === 0 ? to1 : to2).nickname }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 404)).toHaveLength(9);
    for (const r of results.filter((x) => x.statusCode === 404))
      expect(r.json()).toEqual({ message: 'Item not found' });

    const winner = results.findIndex((r) => r.statusCode === 200) % 2 === 0 ? to1 : to2;
    const loser = winner === to1 ? to2 : to1;
    expect(await ownerOf(item._id)).toBe(winner.id);
    expect(await namesOf(winner)).toEqual(['Raven']);
    expect(await namesOf(loser)).toEqual([]);
    expect(await namesOf(from)).toEqual([]);
    expect((await notificationsOf(winner)).notifications.filter((n) => n.kind === 'items_received')).toHaveLength(1);
    expect((await notificationsOf(loser)).notifications.filter((n) => n.kind === 'items_received')).toEqual([]);
  });
});
