/**
 * A creator changes their collection and its items (DESIGN §7 `modifyCollection`, `modifyItem`): only the
 * collection's creator may (another creator and an admin get 403, a member 403, a visitor 401, an unknown
 * id 404); the fields sent replace the stored ones and the rest stay; the owner keeps the item; a changed
 * app URL list is the one a consent request is checked against.
 */
import type { CollectionsResponse, Item, ItemsResponse, OwnCollection } from '@starlight/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, type Member, registerMember, useTestApp, withRole } from './helpers.ts';

const t = useTestApp();
let creator: Member;
let rival: Member;
let member: Member;
let collection: OwnCollection;
let item: Item;

const UNKNOWN_ID = 'ffffffffffffffffffffffff';

beforeAll(async () => {
  creator = await withRole(t.built, await registerMember(t.app, 'maker'), 'creator');
  rival = await withRole(t.built, await registerMember(t.app, 'rival'), 'creator');
  member = await registerMember(t.app, 'holder');
  const made = await call(t.app, creator.token, 'POST', '/api/inventory/createCollection', {
    name: 'Edit Fleet',
    description: 'Ships that will change',
    redirectUrls: ['https://app.example.com/callback'],
    cancelUrl: 'https://app.example.com/cancel',
  });
  expect(made.statusCode, made.body).toBe(200);
  collection = made.json<{ collection: OwnCollection }>().collection;
  const res = await call(t.app, creator.token, 'POST', '/api/inventory/createItem', {
    itemCollection: collection._id,
    owner: member.nickname,
    name: 'Falcon',
    description: 'A fast scout ship',
    imgUrl: 'https://example.com/falcon.png',
    metadata: { class: 'scout' },
    hiddendata: { seed: 'kept' },
  });
  expect(res.statusCode, res.body).toBe(200);
  item = res.json<{ item: Item }>().item;
});

const modifyItem = (by: Member | undefined, body: Record<string, unknown>) =>
  call(t.app, by?.token, 'POST', '/api/inventory/modifyItem', { itemId: item._id, ...body });
const modifyCollection = (by: Member | undefined, body: Record<string, unknown>) =>
  call(t.app, by?.token, 'POST', '/api/inventory/modifyCollection', { collectionId: collection._id, ...body });

describe('modifyItem', () => {
  it("the collection's creator changes the fields sent; the rest and the owner stay", async () => {
    const res = await modifyItem(creator, {
      name: 'Falcon Mk II',
      imgUrl: 'https://example.com/falcon2.png',
      metadata: { class: 'interceptor', stats: { speed: 11 } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ message: string }>().message).toBe('Item Falcon Mk II updated');
    expect(res.json<{ item: Item }>().item).toMatchObject({
      _id: item._id,
      name: 'Falcon Mk II',
      description: 'A fast scout ship',
      imgUrl: 'https://example.com/falcon2.png',
      metadata: { class: 'interceptor', stats: { speed: 11 } },
      hiddendata: { seed: 'kept' },
      owner: { nickname: member.nickname },
    });
    const listed = await call(t.app, creator.token, 'POST', '/api/inventory/getItems', {
      itemCollection: collection._id,
      paging: { page: 1, limit: 10 },
    });
    const [first] = listed.json<ItemsResponse>().data;
    expect(first).toMatchObject({ _id: item._id, name: 'Falcon Mk II', metadata: { class: 'interceptor' } });
  });

  it("clears the description and the image with ''", async () => {
    const res = await modifyItem(creator, { description: '', imgUrl: '' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ item: Item }>().item).toMatchObject({ description: '', imgUrl: '' });
  });

  it('another creator and an admin get 403, a member 403, a visitor 401; nothing changes', async () => {
    for (const by of [rival, t.admin, member]) {
      const res = await modifyItem(by, { name: 'Stolen ship' });
      expect(res.statusCode, res.body).toBe(403);
    }
    expect((await modifyItem(undefined, { name: 'Stolen ship' })).statusCode).toBe(401);
    const listed = await call(t.app, member.token, 'POST', '/api/inventory/getUserItems', {
      paging: { page: 1, limit: 10 },
    });
    expect(listed.json<ItemsResponse>().data.map((i) => i.name)).toEqual(['Falcon Mk II']);
  });

  it('an unknown item is a 404', async () => {
    const res = await modifyItem(creator, { itemId: UNKNOWN_ID, name: 'Ghost' });
    expect(res.statusCode).toBe(404);
    expect(res.json<{ message: string }>().message).toBe('Item not found');
  });

  it.each([
    [{ name: 'ab' }, '"name" contains an invalid value'],
    [{ description: 'too short' }, '"description" contains an invalid value'],
    [{ imgUrl: 'not a url' }, '"imgUrl" contains an invalid value'],
    [{ metadata: ['a list'] }, '"metadata" contains an invalid value'],
    [{ metadata: { nested: { deeper: { deepest: { bottom: { x: 1 } } } } } }, '"metadata" contains an invalid value'],
    [{ owner: 'someone' }, '"owner" is not allowed'],
    [{ itemId: 'short' }, '"itemId" contains an invalid value'],
  ])('refuses %j with %s', async (body, message) => {
    const res = await modifyItem(creator, body);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe(message);
  });
});

describe('modifyCollection', () => {
  it('the creator changes the app URLs; the consent request checks the new ones; visitors see the new name', async () => {
    const res = await modifyCollection(creator, {
      name: 'Edited Fleet',
      redirectUrls: ['https://new.example.com/back', 'https://new.example.com/other'],
      cancelUrl: 'https://new.example.com/cancel',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ collection: OwnCollection }>().collection).toMatchObject({
      _id: collection._id,
      name: 'Edited Fleet',
      description: 'Ships that will change',
      redirectUrls: ['https://new.example.com/back', 'https://new.example.com/other'],
      cancelUrl: 'https://new.example.com/cancel',
    });
    const seen = await call(t.app, undefined, 'POST', '/api/inventory/getCollections', {});
    expect(seen.json<CollectionsResponse>().data.find((c) => c._id === collection._id)?.name).toBe('Edited Fleet');
    const ask = (redirectUrl: string) =>
      call(t.app, creator.token, 'POST', '/api/capp/createAuthRequest', {
        itemCollectionId: collection._id,
        redirectUrl,
        cancelUrl: 'https://new.example.com/cancel',
        customMessage: 'Let us see your ships',
      });
    expect((await ask('https://app.example.com/callback')).statusCode).toBe(400);
    const asked = await ask('https://new.example.com/other');
    expect(asked.statusCode, asked.body).toBe(200);
  });

  it('another creator and an admin get 403, a member 403, a visitor 401; nothing changes', async () => {
    for (const by of [rival, t.admin, member]) {
      const res = await modifyCollection(by, { redirectUrls: ['https://evil.example.com/steal'] });
      expect(res.statusCode, res.body).toBe(403);
    }
    expect((await modifyCollection(undefined, { redirectUrls: [] })).statusCode).toBe(401);
    const own = await call(t.app, creator.token, 'POST', '/api/inventory/getCollections', {});
    const mine = own.json<CollectionsResponse>().mine.find((c) => c._id === collection._id);
    expect(mine?.redirectUrls).toEqual(['https://new.example.com/back', 'https://new.example.com/other']);
  });

  it('an unknown collection is a 404', async () => {
    const res = await modifyCollection(creator, { collectionId: UNKNOWN_ID, name: 'Ghost fleet' });
    expect(res.statusCode).toBe(404);
    expect(res.json<{ message: string }>().message).toBe('Collection not found');
  });

  it.each([
    [{ redirectUrls: ['javascript:alert(1)'] }, '"redirectUrls.0" contains an invalid value'],
    [{ redirectUrls: ['http://example.com/cb'] }, '"redirectUrls.0" contains an invalid value'],
    [{ cancelUrl: 'nope' }, '"cancelUrl" contains an invalid value'],
    [{ name: 'ab' }, '"name" contains an invalid value'],
    [{ creatorId: 'x' }, '"creatorId" is not allowed'],
  ])('refuses %j with %s', async (body, message) => {
    const res = await modifyCollection(creator, body);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe(message);
  });
});
