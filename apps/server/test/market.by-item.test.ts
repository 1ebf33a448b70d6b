/**
 * "By item" across every open listing (`POST /api/market/listingsByItem`, ours beside DESIGN §11.5): one
 * group per item name and currency with its lowest open price and how many are open, by name then
 * currency, keyset-paged; filtered by collection, currency or the start of a name; sold and cancelled
 * listings are left out; the collection and currency filters read along a partial index in the groups'
 * order (no sort of all listings).
 */
import type { Item, ListingsByItemResponse, OwnCollection } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { bankCalls } from './bank.helpers.ts';
import { call, type Member, mint, registerMember, useTestApp, withRole } from './helpers.ts';

const t = useTestApp();
const { newCurrency } = bankCalls(t);
let creator: Member;
let fleet: OwnCollection;
let relics: OwnCollection;
let gold: { currencyId: number };
let gems: { currencyId: number };

async function collectionNamed(name: string): Promise<OwnCollection> {
  const made = await call(t.app, creator.token, 'POST', '/api/inventory/createCollection', {
    name,
    description: 'For the by-item view',
  });
  expect(made.statusCode, made.body).toBe(200);
  return made.json<{ collection: OwnCollection }>().collection;
}

/** Lists a new item `name` of `collection` owned by `seller` at `price` in `currencyId`; answers the listing id. */
async function listNew(seller: Member, collection: OwnCollection, name: string, currencyId: number, price: string) {
  const made = await call(t.app, creator.token, 'POST', '/api/inventory/createItem', {
    itemCollection: collection._id,
    owner: seller.nickname,
    name,
  });
  const item = made.json<{ item: Item }>().item;
  const res = await call(t.app, seller.token, 'POST', '/api/market/createListing', {
    itemId: item._id,
    currencyId,
    price,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ listing: { _id: string } }>().listing._id;
}

const byItem = async (body: Record<string, unknown>) => {
  const res = await call(t.app, undefined, 'POST', '/api/market/listingsByItem', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ListingsByItemResponse>();
};
const rows = (r: ListingsByItemResponse) => r.groups.map((g) => [g.name, g.currencyId, g.lowestPrice, g.count]);

beforeAll(async () => {
  creator = await withRole(t.built, await registerMember(t.app, 'bic'), 'creator');
  fleet = await collectionNamed('By Item Fleet');
  relics = await collectionNamed('By Item Relics');
  gold = await newCurrency({ name: 'Group Gold', precision: 2 });
  gems = await newCurrency({ name: 'Group Gems', precision: 0 });
  const a = await registerMember(t.app, 'bia');
  const b = await registerMember(t.app, 'bib');
  await listNew(a, fleet, 'Zz Comet', gold.currencyId, '12.5');
  await listNew(b, fleet, 'Zz Comet', gold.currencyId, '9.25');
  await listNew(a, fleet, 'Zz Comet', gems.currencyId, '3');
  await listNew(a, fleet, 'Zz Arrow', gold.currencyId, '40');
  await listNew(b, relics, 'Zz Arrow', gold.currencyId, '35');
  await listNew(b, relics, 'Zz Bolt', gems.currencyId, '7');
  // A cancelled and a sold listing are not open: neither counts.
  const cancelled = await listNew(a, fleet, 'Zz Bolt', gems.currencyId, '1');
  expect((await call(t.app, a.token, 'POST', '/api/market/cancelListing', { listingId: cancelled })).statusCode).toBe(
    200,
  );
  const sold = await listNew(a, fleet, 'Zz Comet', gold.currencyId, '1');
  const buyer = await registerMember(t.app, 'bibuy');
  await mint(t.app, t.admin, buyer.nickname, gold.currencyId, '5');
  const bought = await call(
    t.app,
    buyer.token,
    'POST',
    '/api/market/buy',
    { listingId: sold },
    { 'idempotency-key': `bi-${sold}` },
  );
  expect(bought.statusCode, bought.body).toBe(200);
});

describe('POST /api/market/listingsByItem', () => {
  it('groups every open listing by name and currency, lowest price and count, keyset-paged', async () => {
    const first = await byItem({ limit: 2, after: { name: 'Zz', currencyId: 1 } });
    expect(rows(first)).toEqual([
      ['Zz Arrow', gold.currencyId, '35.000000000', 2],
      ['Zz Bolt', gems.currencyId, '7.000000000', 1],
    ]);
    expect(first.next).toEqual({ name: 'Zz Bolt', currencyId: gems.currencyId });
    const second = await byItem({ limit: 2, after: first.next });
    expect(rows(second)).toEqual(
      [
        ['Zz Comet', gold.currencyId, '9.250000000', 2],
        ['Zz Comet', gems.currencyId, '3.000000000', 1],
      ].sort((x, y) => Number(x[1]) - Number(y[1])),
    );
    // The last page says so.
    expect(second.next).toBeNull();
  });

  it('filters by collection and by currency', async () => {
    const inRelics = await byItem({ itemCollectionId: relics._id });
    expect(rows(inRelics)).toEqual([
      ['Zz Arrow', gold.currencyId, '35.000000000', 1],
      ['Zz Bolt', gems.currencyId, '7.000000000', 1],
    ]);
    expect(inRelics.next).toBeNull();
    const inGems = await byItem({ currencyId: gems.currencyId });
    expect(rows(inGems)).toEqual([
      ['Zz Bolt', gems.currencyId, '7.000000000', 1],
      ['Zz Comet', gems.currencyId, '3.000000000', 1],
    ]);
    const none = await byItem({
      itemCollectionId: fleet._id,
      currencyId: gems.currencyId,
      after: { name: 'Zz Comet', currencyId: gems.currencyId },
    });
    expect(none).toMatchObject({ groups: [], next: null, message: 'No Data' });
  });

  it('filters by the start of a name, case aside, with the other filters and across pages', async () => {
    expect(rows(await byItem({ name: 'zZ c' }))).toEqual(
      [
        ['Zz Comet', gold.currencyId, '9.250000000', 2],
        ['Zz Comet', gems.currencyId, '3.000000000', 1],
      ].sort((x, y) => Number(x[1]) - Number(y[1])),
    );
    expect(rows(await byItem({ name: 'ZZ ', currencyId: gems.currencyId, itemCollectionId: relics._id }))).toEqual([
      ['Zz Bolt', gems.currencyId, '7.000000000', 1],
    ]);
    const first = await byItem({ name: 'zz', limit: 2 });
    expect(rows(first)).toEqual([
      ['Zz Arrow', gold.currencyId, '35.000000000', 2],
      ['Zz Bolt', gems.currencyId, '7.000000000', 1],
    ]);
    expect(first.next).toEqual({ name: 'Zz Bolt', currencyId: gems.currencyId });
    const second = await byItem({ name: 'zz', limit: 2, after: first.next });
    expect(second.groups.map((g) => g.name)).toEqual(['Zz Comet', 'Zz Comet']);
    expect(second.next).toBeNull();
    // A wildcard is a character like any other.
    expect(await byItem({ name: 'Zz_' })).toMatchObject({ groups: [], message: 'No Data' });
  });

  it('refuses bad input with a clear message', async () => {
    for (const [body, message] of [
      [{ limit: 0 }, '"limit" contains an invalid value'],
      [{ limit: 51 }, '"limit" contains an invalid value'],
      [{ after: { name: '', currencyId: 1 } }, '"after.name" contains an invalid value'],
      [{ sort: 'price' }, '"sort" is not allowed'],
      [{ name: ' ' }, '"name" contains an invalid value'],
    ] as const) {
      const res = await call(t.app, undefined, 'POST', '/api/market/listingsByItem', body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toBe(message);
    }
  });

  it('reads each filter along its partial index in the groups order, sorting nothing', async () => {
    const plans: string[] = [];
    await t.built.database.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      for (const where of [sql`TRUE`, sql`l.collection_id = ${fleet._id}`, sql`l.currency_id = ${gold.currencyId}`]) {
        const res = await tx.execute<{ 'QUERY PLAN': string }>(sql`
          EXPLAIN SELECT l.item_name, l.currency_id, min(l.price), count(*) FROM market_listings l
           WHERE l.state = 'open' AND ${where} AND (l.item_name, l.currency_id) > ('Zz', 1)
           GROUP BY l.item_name, l.currency_id ORDER BY l.item_name, l.currency_id LIMIT 21`);
        plans.push(res.rows.map((r) => r['QUERY PLAN']).join('\n'));
      }
    });
    expect(plans[0]).toContain('market_listings_open_name_currency');
    expect(plans[1]).toContain('market_listings_open_collection_name');
    expect(plans[2]).toContain('market_listings_open_currency_name');
    for (const plan of plans) expect(plan).not.toMatch(/\bSort\b/);
  });
});
