/**
 * A listed item and the creator's side (DESIGN §11.5: a listed item cannot be used by a creator app until
 * it sells or the listing is cancelled): the app reads each of the member's items with `listed`; the
 * creator cannot change a listed item (a buyer gets it as listed) nor move it (`modifyItem` has no owner);
 * once the listing is cancelled the item is free again.
 */
import type { CappItem, Item, Listing, OwnCollection } from '@starlight/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { bankCalls } from './bank.helpers.ts';
import { cappCalls } from './capp.helpers.ts';
import { call, type Member, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();
const { newCurrency } = bankCalls(t);
let creator: Member;
let creatorKey: string;
let collection: OwnCollection;
const { makeCreator, requestId, codeFor, redeem, itemsOf, giveItem } = cappCalls(t, () => ({
  member: creator,
  key: creatorKey,
  collection,
}));

beforeAll(async () => {
  ({ member: creator, key: creatorKey, collection } = await makeCreator('cappl'));
});

async function appItems(member: Member): Promise<Array<Pick<CappItem, 'name' | 'listed'>>> {
  const res = await itemsOf(creatorKey, member.id);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: CappItem[] }>().data.map(({ name, listed }) => ({ name, listed }));
}

const modifyItem = (item: Item, body: Record<string, unknown>) =>
  call(t.app, creator.token, 'POST', '/api/inventory/modifyItem', { itemId: item._id, ...body });

describe('a listed item and the creator app', () => {
  it('the app sees which items are listed; the creator cannot change or move one until it is cancelled', async () => {
    const coin = await newCurrency({ name: 'App Coin', precision: 2 });
    const member = await registerMember(t.app, 'capplist');
    const kept = await giveItem(member, 'Alpha Corvette');
    const listed = await giveItem(member, 'Alpha Lancer');
    expect((await redeem(creatorKey, await codeFor(member, await requestId()))).statusCode).toBe(200);
    expect(await appItems(member)).toEqual([
      { name: 'Alpha Lancer', listed: false },
      { name: 'Alpha Corvette', listed: false },
    ]);

    const made = await call(t.app, member.token, 'POST', '/api/market/createListing', {
      itemId: listed._id,
      currencyId: coin.currencyId,
      price: '4',
    });
    expect(made.statusCode, made.body).toBe(200);
    const listing = made.json<{ listing: Listing }>().listing;
    expect(await appItems(member)).toEqual([
      { name: 'Alpha Lancer', listed: true },
      { name: 'Alpha Corvette', listed: false },
    ]);

    const refused = await modifyItem(listed, { name: 'Alpha Lancer Mk II', variabledata: { hull: 1 } });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().message).toBe(
      'This item is listed on the market: it cannot be changed until it sells or the listing is cancelled',
    );
    const moved = await modifyItem(listed, { owner: creator.nickname });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().message).toBe('"owner" is not allowed');
    // The unlisted item changes as before; the listed one, its listing and its owner stay as they were.
    expect((await modifyItem(kept, { variabledata: { hull: 2 } })).statusCode).toBe(200);
    const open = await call(t.app, undefined, 'POST', '/api/market/listings', {
      paging: { limit: 10, page: 1 },
      name: 'Alpha Lancer',
    });
    expect(open.json<{ listings: Listing[] }>().listings).toMatchObject([
      { _id: listing._id, item: { name: 'Alpha Lancer' }, seller: { nickname: member.nickname } },
    ]);
    expect(await appItems(member)).toEqual([
      { name: 'Alpha Lancer', listed: true },
      { name: 'Alpha Corvette', listed: false },
    ]);

    const cancelled = await call(t.app, member.token, 'POST', '/api/market/cancelListing', { listingId: listing._id });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await appItems(member)).toEqual([
      { name: 'Alpha Lancer', listed: false },
      { name: 'Alpha Corvette', listed: false },
    ]);
    const changed = await modifyItem(listed, { name: 'Alpha Lancer Mk II' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<{ item: Item }>().item).toMatchObject({
      name: 'Alpha Lancer Mk II',
      owner: { nickname: member.nickname },
    });
  });
});
