/**
 * The marketplace's totals (DESIGN §11.5, decision 0005): the open listings' counts kept by triggers in the
 * writer's transaction answer `listings`' total exactly, for every filter but the name, through concurrent
 * listings, cancels, buys and refusals; at the end the kept counts equal a recount at every grain, money
 * is conserved and no balance is negative.
 */
import type { Item, Listing, ListingsResponse, OwnCollection } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { bankCalls } from './bank.helpers.ts';
import { call, expectLedgerBalanced, type Member, mint, registerMember, useTestApp } from './helpers.ts';
import { driftedMarketCounts, newCreatorCollection } from './market.helpers.ts';

const t = useTestApp();
const { newCurrency } = bankCalls(t);
let creator: Member;
let collection: OwnCollection;
let coinA: { currencyId: number; ticker: string };
let coinB: { currencyId: number; ticker: string };

beforeAll(async () => {
  ({ creator, collection } = await newCreatorCollection(t, 'mcc', 'Counted Fleet'));
  coinA = await newCurrency({ name: 'Count Coin A', precision: 2 });
  coinB = await newCurrency({ name: 'Count Coin B', precision: 2 });
});

async function itemFor(owner: Member): Promise<Item> {
  const res = await call(t.app, creator.token, 'POST', '/api/inventory/createItem', {
    itemCollection: collection._id,
    owner: owner.nickname,
    name: 'Counted Corvette',
    description: 'A ship to count',
    imgUrl: 'https://example.com/ship.png',
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ item: Item }>().item;
}

const post = (m: Member | undefined, url: string, body: unknown) =>
  call(t.app, m?.token, 'POST', `/api/market/${url}`, body);

async function list(seller: Member, currencyId: number, price: string): Promise<Listing> {
  const res = await post(seller, 'createListing', { itemId: (await itemFor(seller))._id, currencyId, price });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ listing: Listing }>().listing;
}

/** The totals a visitor reads for this collection and its two currencies, as [collection, A in it, B]. */
async function totals(): Promise<number[]> {
  const read = async (filter: Record<string, unknown>) => {
    const res = await post(undefined, 'listings', { paging: { limit: 10, page: 1 }, ...filter });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ListingsResponse>().total;
  };
  return Promise.all([
    read({ itemCollectionId: collection._id }),
    read({ itemCollectionId: collection._id, currencyId: coinA.currencyId }),
    read({ currencyId: coinB.currencyId, sort: 'price' }),
  ]);
}

describe('the open listings’ totals', () => {
  it('stay exact through concurrent listings, cancels, buys and refusals', async () => {
    const seller = await registerMember(t.app, 'mcs');
    const other = await registerMember(t.app, 'mct');
    const buyers = await Promise.all(Array.from({ length: 4 }, () => registerMember(t.app, 'mcb')));
    for (const b of buyers) {
      await mint(t.app, t.admin, b.nickname, coinA.currencyId, '100');
      await mint(t.app, t.admin, b.nickname, coinB.currencyId, '100');
    }
    expect(await totals()).toEqual([0, 0, 0]);

    // Listed at once from several sessions: three in A, two in B.
    const [a1, a2, a3, b1, b2] = await Promise.all([
      list(seller, coinA.currencyId, '10'),
      list(other, coinA.currencyId, '11'),
      list(seller, coinA.currencyId, '12'),
      list(other, coinB.currencyId, '5'),
      list(seller, coinB.currencyId, '6'),
    ]);
    expect(await totals()).toEqual([5, 3, 2]);

    // Refusals count nothing: a price of 0, an item listed twice, a stranger's cancel.
    const zero = await post(seller, 'createListing', {
      itemId: (await itemFor(seller))._id,
      currencyId: coinA.currencyId,
      price: '0',
    });
    expect(zero.statusCode).toBe(400);
    const again = await post(seller, 'createListing', {
      itemId: a1?.item._id,
      currencyId: coinA.currencyId,
      price: '9',
    });
    expect(again.statusCode).toBe(409);
    expect((await post(other, 'cancelListing', { listingId: a1?._id })).statusCode).toBe(404);
    expect(await totals()).toEqual([5, 3, 2]);

    // A cancel, a buy, and four buyers racing for one listing, all at once: each closes one listing.
    const [cancelled, bought, ...raced] = await Promise.all([
      post(seller, 'cancelListing', { listingId: a1?._id }),
      post(buyers[0], 'buy', { listingId: b1?._id }),
      ...buyers.map((b) => post(b, 'buy', { listingId: a2?._id })),
    ]);
    expect(cancelled?.statusCode, cancelled?.body).toBe(200);
    expect(bought?.statusCode, bought?.body).toBe(200);
    expect(raced.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(await totals()).toEqual([2, 1, 1]);
    // Closed listings cannot close twice.
    expect((await post(buyers[1], 'buy', { listingId: b1?._id })).statusCode).toBe(409);
    expect((await post(seller, 'cancelListing', { listingId: a1?._id })).statusCode).toBe(409);
    expect(await totals()).toEqual([2, 1, 1]);

    expect([a3?.state, b2?.state]).toEqual(['open', 'open']);
    expect(await driftedMarketCounts(t.built.database.db)).toEqual([]);
    await expectLedgerBalanced(t.app, t.admin);
    const negative = await t.built.database.db.execute(sql`SELECT count(*)::int AS n FROM balances WHERE amount < 0`);
    expect(negative.rows[0]).toEqual({ n: 0 });
  });
});
