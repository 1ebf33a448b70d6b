/**
 * A private member's items (DESIGN §6, §7): `getItems` names a private owner (`isAnonymous`) `Anonymous`
 * to everyone but that member, the collection's creator and admins included, as the leaderboard does.
 */
import type { Item, ItemsResponse, OwnCollection } from '@starlight/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, type Member, registerMember, useTestApp, withRole } from './helpers.ts';

const t = useTestApp();
let creator: Member;
let hidden: Member;
let shown: Member;
let viewer: Member;
let collection: OwnCollection;

function setPrivate(m: Member, isAnonymous: boolean) {
  return call(t.app, m.token, 'POST', '/api/user/updateProfile', { isAnonymous });
}

async function itemsSeenBy(m: Member): Promise<{ items: Item[]; body: string }> {
  const res = await call(t.app, m.token, 'POST', '/api/inventory/getItems', {
    itemCollection: collection._id,
    paging: { limit: 10, page: 1 },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { items: res.json<ItemsResponse>().data, body: res.body };
}

/** The owner's nickname as `m` sees it on the item named `name`. */
function ownerOf(items: Item[], name: string): string | undefined {
  return items.find((i) => i.name === name)?.owner.nickname;
}

beforeAll(async () => {
  creator = await withRole(t.built, await registerMember(t.app, 'pmaker'), 'creator');
  hidden = await registerMember(t.app, 'phidden');
  shown = await registerMember(t.app, 'pshown');
  viewer = await registerMember(t.app, 'pviewer');
  const made = await call(t.app, creator.token, 'POST', '/api/inventory/createCollection', { name: 'Private Fleet' });
  expect(made.statusCode, made.body).toBe(200);
  collection = made.json<{ collection: OwnCollection }>().collection;
  for (const [owner, name] of [
    [hidden, 'Shadow'],
    [shown, 'Beacon'],
  ] as const) {
    const res = await call(t.app, creator.token, 'POST', '/api/inventory/createItem', {
      itemCollection: collection._id,
      owner: owner.nickname,
      name,
      description: 'A ship of the private fleet',
      imgUrl: 'https://example.com/ship.png',
      metadata: {},
      variabledata: {},
      hiddendata: {},
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  expect((await setPrivate(hidden, true)).statusCode).toBe(200);
});

describe('getItems and private owners', () => {
  it('names a private owner Anonymous to another member, the creator and an admin', async () => {
    for (const who of [viewer, creator, t.admin]) {
      const { items, body } = await itemsSeenBy(who);
      expect(ownerOf(items, 'Shadow'), who.nickname).toBe('Anonymous');
      expect(ownerOf(items, 'Beacon'), who.nickname).toBe(shown.nickname);
      expect(body).not.toContain(hidden.nickname);
    }
  });

  it('shows the private owner their own nickname', async () => {
    const { items } = await itemsSeenBy(hidden);
    expect(ownerOf(items, 'Shadow')).toBe(hidden.nickname);
  });

  it('names the owner again once they are public', async () => {
    expect((await setPrivate(hidden, false)).statusCode).toBe(200);
    try {
      expect(ownerOf((await itemsSeenBy(viewer)).items, 'Shadow')).toBe(hidden.nickname);
    } finally {
      expect((await setPrivate(hidden, true)).statusCode).toBe(200);
    }
  });
});
