/** Setup and checks shared by the item and marketplace tests. */
import type { OwnCollection } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { call, type Member, registerMember, type TestApp, withRole } from './helpers.ts';

/**
 * A new member (nickname starting `prefix`) given the creator role, and their new collection `name`, with
 * the collection's royalty when given (a decimal string, 0 to 0.25): the collection as the last answer shows it.
 */
export async function newCreatorCollection(
  t: TestApp,
  prefix: string,
  name: string,
  royalty?: string,
): Promise<{ creator: Member; collection: OwnCollection }> {
  const creator = await withRole(t.built, await registerMember(t.app, prefix), 'creator');
  const made = await call(t.app, creator.token, 'POST', '/api/inventory/createCollection', {
    name,
    description: `The ships of ${name}`,
  });
  expect(made.statusCode, made.body).toBe(200);
  const collection = made.json<{ collection: OwnCollection }>().collection;
  if (royalty === undefined) return { creator, collection };
  const set = await call(t.app, creator.token, 'POST', '/api/inventory/modifyCollection', {
    collectionId: collection._id,
    royalty,
  });
  expect(set.statusCode, set.body).toBe(200);
  return { creator, collection: set.json<{ collection: OwnCollection }>().collection };
}

/**
 * The grains of `market_open_counts` whose kept count differs from a recount of the open listings, read in
 * one snapshot: none when the triggers kept them.
 */
export async function driftedMarketCounts(db: Db): Promise<unknown[]> {
  const res = await db.execute(sql`
    WITH kept AS (SELECT collection_id, currency_id, sum(n)::int AS n FROM market_open_counts
                   GROUP BY collection_id, currency_id HAVING sum(n) <> 0),
         recount AS (SELECT coalesce(collection_id::text, '') AS collection_id, coalesce(currency_id, 0) AS currency_id,
                            count(*)::int AS n
                       FROM market_listings WHERE state = 'open'
                      GROUP BY GROUPING SETS ((collection_id, currency_id), (collection_id), (currency_id), ()))
    SELECT k.collection_id, k.currency_id, k.n AS kept, r.collection_id AS r_collection, r.currency_id AS r_currency,
           r.n AS recounted
      FROM kept k FULL JOIN recount r ON r.collection_id = k.collection_id AND r.currency_id = k.currency_id
     WHERE k.n IS DISTINCT FROM r.n AND coalesce(r.n, 0) <> 0`);
  return res.rows;
}
