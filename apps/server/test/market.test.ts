/**
 * The marketplace (DESIGN §11.5): list an item, browse and filter, buy it (price to the seller, royalty to
 * the creator, item to the buyer, in one transaction under the Idempotency-Key), cancel; every refusal
 * changes nothing; concurrent buyers cannot both win; conservation holds and no balance is negative.
 */
import type { Item, Listing, ListingsResponse, OwnCollection } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { bankCalls } from './bank.helpers.ts';
import {
  balanceOf,
  call,
  expectLedgerBalanced,
  type Member,
  mint,
  PASSWORD,
  registerMember,
  useTestApp,
} from './helpers.ts';
import { newCreatorCollection } from './market.helpers.ts';

const t = useTestApp();
const { newCurrency } = bankCalls(t);
let creator: Member;
let collection: OwnCollection;
let coin: { currencyId: number; ticker: string };

beforeAll(async () => {
  ({ creator, collection } = await newCreatorCollection(t, 'mkc', 'Market Fleet', '0.1'));
  expect(collection.royalty).toBe('0.100000000');
  coin = await newCurrency({ name: 'Market Coin', precision: 2 });
});

async function itemFor(owner: Member, name = 'Falcon'): Promise<Item> {
  const res = await call(t.app, creator.token, 'POST', '/api/inventory/createItem', {
    itemCollection: collection._id,
    owner: owner.nickname,
    name,
    description: 'A ship for the market',
    imgUrl: 'https://example.com/ship.png',
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ item: Item }>().item;
}

const post = (m: Member | undefined, url: string, body: unknown, headers: Record<string, string> = {}) =>
  call(t.app, m?.token, 'POST', `/api/market/${url}`, body, headers);

async function listOk(seller: Member, item: Item, price: string): Promise<Listing> {
  const res = await post(seller, 'createListing', { itemId: item._id, currencyId: coin.currencyId, price });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ listing: Listing }>().listing;
}

async function ownerOf(itemId: string): Promise<string> {
  const res = await t.built.database.db.execute<{ owner_id: string }>(
    sql`SELECT owner_id FROM items WHERE id = ${itemId}`,
  );
  return res.rows[0]?.owner_id ?? '';
}

async function expectNoNegativeBalance(): Promise<void> {
  const res = await t.built.database.db.execute(sql`SELECT count(*)::int AS n FROM balances WHERE amount < 0`);
  expect(res.rows[0]).toEqual({ n: 0 });
}

describe('listing an item', () => {
  it('lists an own item and shows what the seller receives; refusals change nothing', async () => {
    const seller = await registerMember(t.app, 'mks');
    const other = await registerMember(t.app, 'mko');
    const item = await itemFor(seller);
    const theirs = await itemFor(other);
    const body = (over: Record<string, unknown>) => ({
      itemId: item._id,
      currencyId: coin.currencyId,
      price: '10',
      ...over,
    });

    const notMine = await post(seller, 'createListing', body({ itemId: theirs._id }));
    expect([notMine.statusCode, notMine.json().message]).toEqual([404, 'Item not found']);
    const zero = await post(seller, 'createListing', body({ price: '0' }));
    expect(zero.statusCode).toBe(400);
    const fine = await post(seller, 'createListing', body({ price: '1.001' }));
    expect([fine.statusCode, fine.json().message]).toEqual([400, 'Price can have at most 2 decimals']);
    const noCurrency = await post(seller, 'createListing', body({ currencyId: 999_999 }));
    expect([noCurrency.statusCode, noCurrency.json().message]).toEqual([404, 'Currency not found']);
    const stuck = await newCurrency({ name: 'Stuck Coin', precision: 2, canTransfer: false });
    const untransferable = await post(seller, 'createListing', body({ currencyId: stuck.currencyId }));
    expect([untransferable.statusCode, untransferable.json().message]).toEqual([
      409,
      `${stuck.ticker} cannot be transferred`,
    ]);
    expect((await post(seller, 'myListings', { paging: { limit: 10, page: 1 } })).json<ListingsResponse>().total).toBe(
      0,
    );

    const listing = await listOk(seller, item, '10');
    expect(listing).toMatchObject({
      item: { _id: item._id, name: 'Falcon', itemCollection: collection._id },
      seller: { nickname: seller.nickname },
      buyer: null,
      price: '10.000000000',
      royalty: '0.100000000',
      sellerReceives: '9.000000000',
      state: 'open',
      soldAt: null,
    });
    const again = await post(seller, 'createListing', body({ price: '12' }));
    expect([again.statusCode, again.json().message]).toEqual([409, 'This item is already listed']);
    // A listed item is locked: no gift, and its seller's account cannot be deleted.
    const gift = await call(t.app, seller.token, 'POST', '/api/inventory/giftItem', {
      itemId: item._id,
      recipientNickName: other.nickname,
    });
    expect([gift.statusCode, gift.json().message]).toEqual([
      409,
      'This item is listed on the market: cancel the listing to gift it',
    ]);
    const leave = await call(t.app, seller.token, 'POST', '/api/user/deleteAccount', {
      confirmNickname: seller.nickname,
      password: PASSWORD,
    });
    expect([leave.statusCode, leave.json().message]).toEqual([
      409,
      'The account still holds value: cancel your 1 open listing on the market, then delete it',
    ]);
    expect(await ownerOf(item._id)).toBe(seller.id);
  });

  it('browses open listings by collection, name prefix and currency, newest first or by price', async () => {
    const seller = await registerMember(t.app, 'mkb');
    const name = `Zeta${Date.now().toString(36)}`;
    const prices = ['30', '10', '20'];
    for (const p of prices) await listOk(seller, await itemFor(seller, `${name} ${p}`), p);
    const browse = async (over: Record<string, unknown>) => {
      const res = await post(undefined, 'listings', {
        paging: { limit: 10, page: 1 },
        name: name.toLowerCase(),
        ...over,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<ListingsResponse>();
    };
    const newest = await browse({});
    expect(newest.total).toBe(3);
    expect(newest.listings.map((l) => l.price)).toEqual(['20.000000000', '10.000000000', '30.000000000']);
    const cheapest = await browse({ sort: 'price', currencyId: coin.currencyId, itemCollectionId: collection._id });
    expect(cheapest.listings.map((l) => l.price)).toEqual(['10.000000000', '20.000000000', '30.000000000']);
    expect((await browse({ currencyId: coin.currencyId + 1000 })).total).toBe(0);
    // A prefix to its last character, and wildcard characters taken as themselves.
    expect((await browse({ name: `${name} 1` })).listings.map((l) => l.price)).toEqual(['10.000000000']);
    await listOk(seller, await itemFor(seller, `${name}_%`), '40');
    expect((await browse({ name: `${name}_` })).listings.map((l) => l.price)).toEqual(['40.000000000']);
    const bad = await post(undefined, 'listings', { paging: { limit: 10, page: 0 } });
    expect(bad.statusCode).toBe(400);
  });
});

describe('buying a listing', () => {
  it('pays the seller and the creator, moves the item, once under a repeated Idempotency-Key', async () => {
    const seller = await registerMember(t.app, 'mkv');
    const buyer = await registerMember(t.app, 'mkr');
    await mint(t.app, t.admin, buyer.nickname, coin.currencyId, '25');
    const item = await itemFor(seller);
    const listing = await listOk(seller, item, '12.34');
    const creatorBefore = await balanceOf(t.app, creator, coin.currencyId);

    const own = await post(seller, 'buy', { listingId: listing._id });
    expect([own.statusCode, own.json().message]).toEqual([409, 'You cannot buy your own listing']);
    const headers = { 'idempotency-key': `buy-${listing._id}` };
    const first = await post(buyer, 'buy', { listingId: listing._id }, headers);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().message).toBe(`You bought Falcon for 12.34 ${coin.ticker}`);
    const repeat = await post(buyer, 'buy', { listingId: listing._id }, headers);
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json()).toEqual(first.json());
    expect(first.json<{ listing: Listing }>().listing).toMatchObject({
      state: 'sold',
      buyer: { nickname: buyer.nickname },
    });
    // The answer shows the listing as a later read does, its sale time included.
    const mine = await post(seller, 'myListings', { paging: { limit: 10, page: 1 } });
    expect(mine.json<ListingsResponse>().listings).toEqual([first.json<{ listing: Listing }>().listing]);

    // 12.34 x 10% = 1.234, rounded up to the currency's 2 decimals: 1.24 to the creator, 11.10 to the seller.
    expect(await balanceOf(t.app, buyer, coin.currencyId)).toBe('12.66');
    expect(await balanceOf(t.app, seller, coin.currencyId)).toBe('11.1');
    const creatorAfter = await balanceOf(t.app, creator, coin.currencyId);
    expect(Number(creatorAfter) - Number(creatorBefore)).toBeCloseTo(1.24, 9);
    expect(await ownerOf(item._id)).toBe(buyer.id);
    const sold = await post(buyer, 'buy', { listingId: listing._id });
    expect([sold.statusCode, sold.json().message]).toEqual([409, 'This listing has been sold']);
    const notes = await t.built.database.db.execute<{ category: number; amount: string }>(
      sql`SELECT category, amount::text AS amount FROM bank_transactions WHERE reference = ${listing._id} ORDER BY category`,
    );
    expect(notes.rows).toEqual([
      { category: 50, amount: '11.100000000' },
      { category: 51, amount: '1.240000000' },
    ]);
    await expectLedgerBalanced(t.app, t.admin);
    await expectNoNegativeBalance();
  });

  it('refuses without funds, after a cancel, and an unknown listing; nothing moves', async () => {
    const seller = await registerMember(t.app, 'mkx');
    const buyer = await registerMember(t.app, 'mky');
    await mint(t.app, t.admin, buyer.nickname, coin.currencyId, '5');
    const item = await itemFor(seller);
    const listing = await listOk(seller, item, '6');
    const poor = await post(buyer, 'buy', { listingId: listing._id });
    expect([poor.statusCode, poor.json().message]).toEqual([409, 'Insufficient funds']);
    const unknown = await post(buyer, 'buy', { listingId: 'ffffffffffffffffffffffff' });
    expect([unknown.statusCode, unknown.json().message]).toEqual([404, 'Listing not found']);
    const notYours = await post(buyer, 'cancelListing', { listingId: listing._id });
    expect(notYours.statusCode).toBe(404);
    const cancelled = await post(seller, 'cancelListing', { listingId: listing._id });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json<{ listing: Listing }>().listing.state).toBe('cancelled');
    await mint(t.app, t.admin, buyer.nickname, coin.currencyId, '5');
    const late = await post(buyer, 'buy', { listingId: listing._id });
    expect([late.statusCode, late.json().message]).toEqual([409, 'This listing has been cancelled']);
    expect(await balanceOf(t.app, buyer, coin.currencyId)).toBe('10');
    expect(await ownerOf(item._id)).toBe(seller.id);
    // Free again: it can be listed anew.
    await listOk(seller, item, '7');
  });

  it('lets one of many concurrent buyers win; the others are told it sold', async () => {
    const seller = await registerMember(t.app, 'mkz');
    const buyers = await Promise.all(Array.from({ length: 5 }, () => registerMember(t.app, 'mkq')));
    for (const b of buyers) await mint(t.app, t.admin, b.nickname, coin.currencyId, '50');
    const item = await itemFor(seller);
    const listing = await listOk(seller, item, '40');
    const results = await Promise.all(buyers.map((b) => post(b, 'buy', { listingId: listing._id })));
    const won = results.filter((r) => r.statusCode === 200);
    expect(won).toHaveLength(1);
    for (const r of results.filter((x) => x.statusCode !== 200)) {
      expect([r.statusCode, r.json().message]).toEqual([409, 'This listing has been sold']);
    }
    const winner = buyers[results.indexOf(won[0] as (typeof results)[number])] as Member;
    expect(await ownerOf(item._id)).toBe(winner.id);
    const balances = await Promise.all(buyers.map((b) => balanceOf(t.app, b, coin.currencyId)));
    expect(balances.filter((b) => b === '10')).toHaveLength(1);
    expect(balances.filter((b) => b === '50')).toHaveLength(4);
    expect(await balanceOf(t.app, seller, coin.currencyId)).toBe('36');
    await expectLedgerBalanced(t.app, t.admin);
    await expectNoNegativeBalance();
  });

  it('the creator selling their own item keeps the whole price', async () => {
    const buyer = await registerMember(t.app, 'mkw');
    await mint(t.app, t.admin, buyer.nickname, coin.currencyId, '3');
    const item = await itemFor(creator, 'Maker Ship');
    const before = await balanceOf(t.app, creator, coin.currencyId);
    const listing = await listOk(creator, item, '3');
    expect((await post(buyer, 'buy', { listingId: listing._id })).statusCode).toBe(200);
    expect(Number(await balanceOf(t.app, creator, coin.currencyId)) - Number(before)).toBeCloseTo(3, 9);
    await expectLedgerBalanced(t.app, t.admin);
  });
});
