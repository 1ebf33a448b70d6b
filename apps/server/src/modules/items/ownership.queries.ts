/**
 * SQL of an item changing hands (DESIGN §11.5): a gift, and inside the marketplace's transaction a listing
 * and a sale. The item is locked with what a listing copies of it, and its owner moved.
 * Reads other modules' tables: `market_listings` (the market's: an item with an open listing is locked to
 * it, so it cannot be gifted, changed by its creator, or used by a creator app).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { pgArray } from '../../db/pg-array.ts';

/** An item as a listing copies it, with its collection's creator and royalty. */
export interface LockedItem extends Record<string, unknown> {
  id: string;
  owner_id: string;
  collection_id: string;
  name: string;
  img_url: string;
  creator_id: string;
  royalty: string;
}

/**
 * Locks the item `itemId` (FOR UPDATE) in `db`'s transaction and reads it, or null: a second gift or sale
 * of the item waits here, then sees its new owner.
 */
export async function lockItem(db: DbOrTx, itemId: string): Promise<LockedItem | null> {
  const res = await db.execute<LockedItem>(sql`
    SELECT i.id, i.owner_id, i.collection_id, i.name, i.img_url, c.creator_id, c.royalty::text AS royalty
      FROM items i JOIN item_collections c ON c.id = i.collection_id
     WHERE i.id = ${itemId}
       FOR UPDATE OF i`);
  return res.rows[0] ?? null;
}

/** Moves the item `itemId` from `fromId` to `toId`; false (nothing moved) when `fromId` no longer owns it. */
export async function moveItem(db: DbOrTx, itemId: string, fromId: string, toId: string): Promise<boolean> {
  const res = await db.execute(sql`UPDATE items SET owner_id = ${toId} WHERE id = ${itemId} AND owner_id = ${fromId}`);
  return (res.rowCount ?? 0) === 1;
}

/**
 * The move of `moveItem` written by a ledger posting's own statement (the ledger's `PostAlong`), only when
 * the posting is: `ctes` is the CTE `moved`, `columns` its column `moved` (1, or 0 when `fromId` no longer
 * owns the item).
 */
export function moveItemAlong(itemId: string, fromId: string, toId: string): { ctes: SQL; columns: SQL } {
  return {
    ctes: sql`moved AS (
      UPDATE items SET owner_id = ${toId}::bpchar WHERE id = ${itemId}::bpchar AND owner_id = ${fromId}::bpchar
         AND (SELECT ok FROM ok)
      RETURNING 1)`,
    columns: sql`(SELECT count(*) FROM moved)::int AS moved`,
  };
}

/** Whether the item `itemId` has an open listing (DESIGN §11.5: it cannot be gifted or listed again). */
export async function hasOpenListing(db: DbOrTx, itemId: string): Promise<boolean> {
  const res = await db.execute(sql`SELECT 1 FROM market_listings WHERE item_id = ${itemId} AND state = 'open'`);
  return res.rows.length > 0;
}

/** Which of the items `itemIds` have an open listing (along `market_listings_open_item`). */
export async function findListedItemIds(db: DbOrTx, itemIds: readonly string[]): Promise<Set<string>> {
  if (itemIds.length === 0) return new Set();
  const res = await db.execute<{ item_id: string }>(
    sql`SELECT item_id FROM market_listings WHERE item_id = ANY(${pgArray([...itemIds])}::text[]) AND state = 'open'`,
  );
  return new Set(res.rows.map((r) => r.item_id));
}
