/**
 * Item collections and items (DESIGN §7): creators and admins make collections; only a
 * collection's creator adds items, for any member; item data is nested text, numbers and booleans,
 * size-limited; members read their own items, grouped by name; `hiddendata` reaches only the creator.
 */
import type {
  CollectionsResponse,
  GroupedItemsResponse,
  Item,
  ItemsResponse,
  OwnCollection,
  UserCollectionsResponse,
} from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, type Member, registerMember, useTestApp, withRole } from './helpers.ts';

const t = useTestApp();
let creator: Member;
let otherCreator: Member;
let member: Member;
let collection: OwnCollection;

beforeAll(async () => {
  creator = await withRole(t.built, await registerMember(t.app, 'maker'), 'creator');
  otherCreator = await withRole(t.built, await registerMember(t.app, 'rival'), 'creator');
  member = await registerMember(t.app, 'holder');
  const res = await call(t.app, creator.token, 'POST', '/api/inventory/createCollection', {
    name: 'Test Fleet',
    description: 'Ships of the test fleet',
    imgUrl: 'https://example.com/fleet.png',
    redirectUrls: ['https://app.example.com/callback'],
    cancelUrl: 'https://app.example.com/cancel',
  });
  expect(res.statusCode, res.body).toBe(200);
  collection = res.json<{ collection: OwnCollection }>().collection;
});

function createItem(by: Member, body: Record<string, unknown>) {
  return call(t.app, by.token, 'POST', '/api/inventory/createItem', {
    itemCollection: collection._id,
    owner: member.nickname,
    name: 'Falcon',
    description: 'A fast scout ship',
    imgUrl: 'https://example.com/falcon.png',
    metadata: { class: 'scout', stats: { speed: 9, armor: 2 } },
    variabledata: { fuel: 100, docked: true },
    hiddendata: { seed: 'secret-seed-123' },
    ...body,
  });
}

describe('collections', () => {
  it('a creator makes a collection with its app URLs; everyone lists it without them', async () => {
    expect(collection).toMatchObject({
      name: 'Test Fleet',
      creator: { nickname: creator.nickname },
      redirectUrls: ['https://app.example.com/callback'],
      cancelUrl: 'https://app.example.com/cancel',
    });
    const seen = await call(t.app, undefined, 'POST', '/api/inventory/getCollections', {});
    const listed = seen.json<CollectionsResponse>();
    const shown = listed.data.find((c) => c._id === collection._id);
    expect(shown).toMatchObject({ name: 'Test Fleet', creator: { nickname: creator.nickname } });
    expect(JSON.stringify(listed)).not.toContain('app.example.com');
    const own = await call(t.app, creator.token, 'POST', '/api/inventory/getCollections', {});
    expect(own.json<CollectionsResponse>().mine.map((c) => c._id)).toContain(collection._id);
    const others = await call(t.app, otherCreator.token, 'POST', '/api/inventory/getCollections', {});
    expect(others.json<CollectionsResponse>().mine.map((c) => c._id)).not.toContain(collection._id);
  });

  it('a visitor who has read the list sees a collection created after at once', async () => {
    const listed = async () =>
      (await call(t.app, undefined, 'POST', '/api/inventory/getCollections', {})).json<CollectionsResponse>().data;
    const before = await listed();
    const res = await call(t.app, creator.token, 'POST', '/api/inventory/createCollection', {
      name: 'Second Fleet',
      redirectUrls: ['https://second.example.com/callback'],
    });
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json<{ collection: { _id: string } }>().collection;
    const after = await listed();
    expect(before.map((c) => c._id)).not.toContain(created._id);
    expect(after.map((c) => c._id)).toContain(created._id);
    expect(JSON.stringify(after)).not.toContain('second.example.com');
  });

  it('a member may not create a collection (403), a visitor 401; an admin may', async () => {
    const body = { name: 'Nope collection' };
    expect((await call(t.app, member.token, 'POST', '/api/inventory/createCollection', body)).statusCode).toBe(403);
    expect((await call(t.app, undefined, 'POST', '/api/inventory/createCollection', body)).statusCode).toBe(401);
    expect(
      (await call(t.app, t.admin.token, 'POST', '/api/inventory/createCollection', { name: 'Admin set' })).statusCode,
    ).toBe(200);
  });

  it('accepts https: app URLs anywhere and http: ones on loopback hosts (local development)', async () => {
    const redirectUrls = [
      'https://app.example.com/callback?from=game',
      'http://localhost:4000/callback',
      'http://127.0.0.1:4000/callback',
      'http://127.8.9.10/callback',
      'http://[::1]:4000/callback',
    ];
    const res = await call(t.app, creator.token, 'POST', '/api/inventory/createCollection', {
      name: 'Local Fleet',
      redirectUrls,
      cancelUrl: 'http://localhost:4000/cancelled',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ collection: OwnCollection }>().collection).toMatchObject({
      redirectUrls,
      cancelUrl: 'http://localhost:4000/cancelled',
    });
  });

  it.each([
    [{ name: 'ab' }, '"name" contains an invalid value'],
    [{ name: 'Good', redirectUrls: ['not a url'] }, '"redirectUrls.0" contains an invalid value'],
    [{ name: 'Good', cancelUrl: 'nope' }, '"cancelUrl" contains an invalid value'],
    [{ name: 'Good', redirectUrls: ['javascript:alert(1)'] }, '"redirectUrls.0" contains an invalid value'],
    [
      { name: 'Good', redirectUrls: ['https://ok.example/cb', 'data:text/html,x'] },
      '"redirectUrls.1" contains an invalid value',
    ],
    [{ name: 'Good', redirectUrls: ['vbscript:msgbox(1)'] }, '"redirectUrls.0" contains an invalid value'],
    [{ name: 'Good', redirectUrls: ['file:///etc/passwd'] }, '"redirectUrls.0" contains an invalid value'],
    [{ name: 'Good', redirectUrls: ['http://example.com/cb'] }, '"redirectUrls.0" contains an invalid value'],
    [{ name: 'Good', redirectUrls: ['https://u:p@ok.example/cb'] }, '"redirectUrls.0" contains an invalid value'],
    [
      { name: 'Good', redirectUrls: ['https://ok.example\\@evil.example/'] },
      '"redirectUrls.0" contains an invalid value',
    ],
    [{ name: 'Good', redirectUrls: ['https://ok.example/c\nb'] }, '"redirectUrls.0" contains an invalid value'],
    [{ name: 'Good', cancelUrl: 'javascript:alert(1)' }, '"cancelUrl" contains an invalid value'],
    [{ name: 'Good', cancelUrl: 'data:text/html,x' }, '"cancelUrl" contains an invalid value'],
    [{ name: 'Good', cancelUrl: 'vbscript:msgbox(1)' }, '"cancelUrl" contains an invalid value'],
    [{ name: 'Good', cancelUrl: 'file:///etc/passwd' }, '"cancelUrl" contains an invalid value'],
    [{ name: 'Good', cancelUrl: 'http://example.com/cancel' }, '"cancelUrl" contains an invalid value'],
  ])('refuses %j with %s', async (body, message) => {
    const res = await call(t.app, creator.token, 'POST', '/api/inventory/createCollection', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });
});

describe('items', () => {
  it("only the collection's creator adds items; the owner must exist", async () => {
    const made = await createItem(creator, {});
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json<{ item: Item }>().item).toMatchObject({
      itemCollection: collection._id,
      owner: { nickname: member.nickname },
      name: 'Falcon',
      metadata: { class: 'scout', stats: { speed: 9, armor: 2 } },
      hiddendata: { seed: 'secret-seed-123' },
    });
    const rival = await createItem(otherCreator, {});
    expect(rival.statusCode).toBe(403);
    expect(rival.json().message).toBe("Only the collection's creator adds items to it");
    expect((await createItem(member, {})).statusCode).toBe(403);
    const nobody = await createItem(creator, { owner: 'nosuchmember123' });
    expect(nobody.statusCode).toBe(404);
    expect(nobody.json().message).toBe('User not found');
  });

  it.each([
    [{ metadata: { a: { b: { c: { d: { e: 1 } } } } } }, '"metadata" contains an invalid value'],
    [{ metadata: { list: [1, 2] } }, '"metadata.list" contains an invalid value'],
    [{ variabledata: { gone: null } }, '"variabledata.gone" contains an invalid value'],
    [{ hiddendata: { blob: 'x'.repeat(1025) } }, '"hiddendata.blob" contains an invalid value'],
    [
      { metadata: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, 'y'.repeat(60)])) },
      '"metadata" contains an invalid value',
    ],
  ])('refuses item data %#', async (body, message) => {
    const res = await createItem(creator, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('hiddendata reaches only the creator: not the owner, not another member', async () => {
    const mine = await call(t.app, member.token, 'POST', '/api/inventory/getUserItems', {
      paging: { limit: 50, page: 1 },
    });
    const own = mine.json<ItemsResponse>();
    expect(own.total).toBeGreaterThan(0);
    expect(JSON.stringify(own)).not.toContain('secret-seed-123');
    const stranger = await registerMember(t.app, 'peek');
    const peek = await call(t.app, stranger.token, 'POST', '/api/inventory/getItems', {
      itemCollection: collection._id,
      paging: { limit: 50, page: 1 },
    });
    expect(peek.statusCode).toBe(200);
    expect(JSON.stringify(peek.json())).not.toContain('secret-seed-123');
    const asCreator = await call(t.app, creator.token, 'POST', '/api/inventory/getItems', {
      itemCollection: collection._id,
      paging: { limit: 50, page: 1 },
    });
    expect(asCreator.json<ItemsResponse>().data[0]?.hiddendata).toEqual({ seed: 'secret-seed-123' });
    expect(
      (await call(t.app, undefined, 'POST', '/api/inventory/getUserItems', { paging: { limit: 5, page: 1 } }))
        .statusCode,
    ).toBe(401);
  });

  it("lists a collection's items; an empty one has none and an unknown one is not found", async () => {
    const list = (itemCollection: string, page = 1) =>
      call(t.app, member.token, 'POST', '/api/inventory/getItems', { itemCollection, paging: { limit: 5, page } });
    const full = await list(collection._id);
    expect(full.statusCode, full.body).toBe(200);
    expect(full.json<ItemsResponse>().total).toBeGreaterThan(0);
    // Past the last page: no items, but the collection is there.
    const past = await list(collection._id, 1000);
    expect(past.statusCode, past.body).toBe(200);
    expect(past.json<ItemsResponse>().data).toEqual([]);
    const made = await call(t.app, creator.token, 'POST', '/api/inventory/createCollection', { name: 'Empty Hangar' });
    const empty = await list(made.json<{ collection: OwnCollection }>().collection._id);
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json<ItemsResponse>()).toMatchObject({ data: [], total: 0, message: 'No Data' });
    const unknown = await list('0123456789abcdef01234567');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Collection not found' });
  });

  it("groups a member's items of a collection by name, with their count", async () => {
    const owner = await registerMember(t.app, 'grouped');
    for (const name of ['Viper', 'Falcon', 'Viper', 'Falcon', 'Falcon']) {
      expect((await createItem(creator, { owner: owner.nickname, name })).statusCode).toBe(200);
    }
    const res = await call(t.app, owner.token, 'POST', '/api/inventory/getUserItemsGrouped', {
      filters: { itemCollection: collection._id },
      paging: { limit: 10, page: 1 },
    });
    const grouped = res.json<GroupedItemsResponse>();
    expect(grouped.total).toBe(2);
    expect(grouped.data.map((g) => [g.name, g.count])).toEqual([
      ['Falcon', 3],
      ['Viper', 2],
    ]);
    expect(JSON.stringify(grouped)).not.toContain('secret-seed-123');
    const other = await call(t.app, member.token, 'POST', '/api/inventory/getUserItemsGrouped', {
      filters: { itemCollection: collection._id },
      paging: { limit: 10, page: 1 },
    });
    expect(other.json<GroupedItemsResponse>().data.map((g) => g.name)).toEqual(['Falcon']);
  });

  it("lists the member's own collections by name with their counts, from items_owner", async () => {
    const owner = await registerMember(t.app, 'held');
    const second = await call(t.app, otherCreator.token, 'POST', '/api/inventory/createCollection', {
      name: 'Another Armada',
      description: 'A second collection of ships',
      imgUrl: 'https://example.com/armada.png',
    });
    expect(second.statusCode, second.body).toBe(200);
    const armada = second.json<{ collection: OwnCollection }>().collection;
    await call(t.app, otherCreator.token, 'POST', '/api/inventory/createCollection', {
      name: 'Unheld Collection',
      description: 'Nobody here holds one of these',
      imgUrl: 'https://example.com/none.png',
    });
    const before = await call(t.app, owner.token, 'POST', '/api/inventory/getUserCollections', {});
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json<UserCollectionsResponse>().data).toEqual([]);
    for (const name of ['Viper', 'Falcon', 'Viper']) {
      expect((await createItem(creator, { owner: owner.nickname, name })).statusCode).toBe(200);
    }
    const armadaItem = await call(t.app, otherCreator.token, 'POST', '/api/inventory/createItem', {
      itemCollection: armada._id,
      owner: owner.nickname,
      name: 'Dreadnought',
      description: 'A heavy battleship of the armada',
      imgUrl: 'https://example.com/d.png',
      metadata: {},
      variabledata: {},
      hiddendata: {},
    });
    expect(armadaItem.statusCode, armadaItem.body).toBe(200);

    const res = await call(t.app, owner.token, 'POST', '/api/inventory/getUserCollections', {});
    expect(res.json<UserCollectionsResponse>().data).toEqual([
      { _id: armada._id, name: 'Another Armada', count: 1, countCapped: false },
      { _id: collection._id, name: 'Test Fleet', count: 3, countCapped: false },
    ]);
    // Another member's list names only what they hold; a visitor may not ask.
    const other = await call(t.app, otherCreator.token, 'POST', '/api/inventory/getUserCollections', {});
    expect(other.json<UserCollectionsResponse>().data).toEqual([]);
    expect((await call(t.app, undefined, 'POST', '/api/inventory/getUserCollections', {})).statusCode).toBe(401);

    const plan = await t.built.database.db.execute<{ 'QUERY PLAN': string }>(
      sql`EXPLAIN SELECT i.collection_id FROM items i WHERE i.owner_id = ${owner.id}
          ORDER BY i.collection_id LIMIT 1`,
    );
    expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('items_owner');
  });

  it('pages through the groups in name order, each with its count and its newest item', async () => {
    const owner = await registerMember(t.app, 'pages');
    // 12 names, some held twice or three times; a name's later item is its newest.
    const names = ['Kite', 'Arrow', 'Lance', 'Comet', 'Bolt', 'Hawk', 'Drake', 'Ember', 'Frost', 'Gale', 'Ion', 'Jet'];
    const held = new Map<string, number>();
    for (const [i, name] of [...names, 'Comet', 'Hawk', 'Hawk', 'Jet'].entries()) {
      held.set(name, (held.get(name) ?? 0) + 1);
      const res = await createItem(creator, {
        owner: owner.nickname,
        name,
        description: `Scout ship copy ${i}`,
        variabledata: { n: i },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const newest = (name: string) => {
      const all = [...names, 'Comet', 'Hawk', 'Hawk', 'Jet'];
      return all.lastIndexOf(name);
    };
    const seen: GroupedItemsResponse['data'] = [];
    for (const page of [1, 2, 3, 4]) {
      const res = await call(t.app, owner.token, 'POST', '/api/inventory/getUserItemsGrouped', {
        filters: { itemCollection: collection._id },
        paging: { limit: 5, page },
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<GroupedItemsResponse>();
      expect(body.total).toBe(names.length);
      expect(body.data.length).toBe(page < 3 ? 5 : page === 3 ? 2 : 0);
      seen.push(...body.data);
    }
    const sorted = [...names].sort();
    expect(seen.map((g) => [g.name, g.count])).toEqual(sorted.map((n) => [n, held.get(n)]));
    expect(seen.map((g) => g.description)).toEqual(sorted.map((n) => `Scout ship copy ${newest(n)}`));
    expect(seen.map((g) => g.variabledata)).toEqual(sorted.map((n) => ({ n: newest(n) })));
  });
});
