/**
 * SQL of the marketplace (DESIGN §11.5): listings written, locked and read. Open listings are read along
 * their partial indexes (newest, price within a currency or overall, a collection's, a name's prefix), a
 * member's own along `market_listings_seller`. Totals of open listings come from the counts kept by triggers
 * (`market_open_counts`); those by name, and a member's own, are counted up to `COUNT_CAP` rows past the page.
 * A sale's writes ride in the ledger posting's statement (`sellListingAlong`).
 * Reads other modules' tables: `users` (the accounts module's: the seller's and buyer's nicknames) and
 * `items` (the items module's: a refunded checkout's items, whose listings it cancels).
 */
import { COUNT_CAP } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryOnce, queryPlanned } from '../../db/client.ts';
import { pageSize } from '../../db/paging.ts';
import { pgArray } from '../../db/pg-array.ts';
import { readWithGenericPlans } from '../../db/transaction.ts';
import { newObjectId } from '../../lib/ids.ts';
import type { PostAlong } from '../ledger/ledger.public.ts';

/** A listing as read, with its parties' nicknames. */
export interface ListingRow extends Record<string, unknown> {
  id: string;
  item_id: string;
  item_name: string;
  item_img_url: string;
  collection_id: string;
  seller_id: string;
  seller: string;
  buyer: string | null;
  currency_id: number;
  price: string;
  royalty: string;
  state: 'open' | 'sold' | 'cancelled';
  created_at: Date | string;
  sold_at: Date | string | null;
}

const COLUMNS = sql`
  SELECT l.id, l.item_id, l.item_name, l.item_img_url, l.collection_id, l.seller_id, s.nickname AS seller,
         b.nickname AS buyer, l.currency_id, l.price::text AS price, l.royalty::text AS royalty, l.state,
         l.created_at, l.sold_at`;
const PARTIES = sql`JOIN users s ON s.id = l.seller_id LEFT JOIN users b ON b.id = l.buyer_id`;
const SELECT = sql`${COLUMNS} FROM market_listings l ${PARTIES}`;
const NEWEST = sql`l.created_at DESC, l.id DESC`;

/**
 * The listings of a page: `ids` (a query of `l.id` in `order`, its LIMIT and OFFSET on an index) picks
 * the page, then only its rows are read and joined to their parties.
 */
function pageOf(ids: SQL, order: SQL): SQL {
  return sql`${COLUMNS} FROM (${ids}) page JOIN market_listings l ON l.id = page.id ${PARTIES} ORDER BY ${order}`;
}

/**
 * The listings of `ids`, in that order, joined to their parties: one named statement for any page, so only
 * the query that picks a page's ids is planned for its values.
 */
async function rowsOf(db: DbOrTx, ids: readonly string[]): Promise<ListingRow[]> {
  if (ids.length === 0) return [];
  return queryPlanned<ListingRow>(
    db,
    sql`${COLUMNS} FROM unnest(${pgArray([...ids])}::bpchar[]) WITH ORDINALITY page(id, n)
        JOIN market_listings l ON l.id = page.id ${PARTIES} ORDER BY page.n`,
  );
}

/** A new listing's fields. */
export interface NewListing {
  itemId: string;
  itemName: string;
  itemImgUrl: string;
  collectionId: string;
  sellerId: string;
  currencyId: number;
  /** Decimal string. */
  price: string;
  /** Decimal string, 0 to 0.25. */
  royalty: string;
}

/**
 * Inserts an open listing and answers its id; null when the item already has an open listing (the
 * partial unique index decides, whatever races).
 */
export async function insertListing(db: DbOrTx, l: NewListing): Promise<string | null> {
  const id = newObjectId();
  const res = await db.execute(sql`
    INSERT INTO market_listings (id, item_id, item_name, item_img_url, collection_id, seller_id, currency_id, price, royalty)
    VALUES (${id}, ${l.itemId}, ${l.itemName}, ${l.itemImgUrl}, ${l.collectionId}, ${l.sellerId}, ${l.currencyId},
            ${l.price}, ${l.royalty})
    ON CONFLICT (item_id) WHERE state = 'open' DO NOTHING`);
  return (res.rowCount ?? 0) === 1 ? id : null;
}

/** Locks the listing `id` (FOR UPDATE) in `db`'s transaction and reads it; null when there is none. */
export async function lockListing(db: DbOrTx, id: string): Promise<ListingRow | null> {
  const res = await db.execute<ListingRow>(sql`${SELECT} WHERE l.id = ${id} FOR UPDATE OF l`);
  return res.rows[0] ?? null;
}

/** Reads the listing `id`; null when there is none. */
export async function findListing(db: DbOrTx, id: string): Promise<ListingRow | null> {
  const res = await db.execute<ListingRow>(sql`${SELECT} WHERE l.id = ${id}`);
  return res.rows[0] ?? null;
}

/** Cancels the open listing `id`. */
export async function cancelOpenListing(db: DbOrTx, id: string): Promise<void> {
  await db.execute(sql`UPDATE market_listings SET state = 'cancelled' WHERE id = ${id} AND state = 'open'`);
}

/**
 * The sale of the open listing `id` to `buyerId`, written by the purchase's ledger posting in its own
 * statement (the ledger's `PostAlong`), beside the item's move (`moved`: the items module's CTE `moved`
 * and column) and the seller's notice (`notified`), only when the posting is. Its column `sold_at` is
 * null when the listing was no longer open.
 */
export function sellListingAlong(
  id: string,
  buyerId: string,
  moved: { ctes: SQL; columns: SQL },
  notified: { ctes: SQL; columns: SQL },
): PostAlong {
  return {
    name: 'market_buy_post',
    ctes: sql`sold AS (
      UPDATE market_listings SET state = 'sold', buyer_id = ${buyerId}::bpchar, sold_at = now()
       WHERE id = ${id}::bpchar AND state = 'open' AND (SELECT ok FROM ok)
      RETURNING sold_at), ${moved.ctes}, ${notified.ctes}`,
    columns: sql`(SELECT sold_at FROM sold) AS sold_at, ${moved.columns}, ${notified.columns}`,
  };
}

/** The filters and order of the open listings (`listings`). */
export interface OpenFilter {
  collectionId?: string | undefined;
  /** Matches the start of the item's name, case aside. */
  name?: string | undefined;
  currencyId?: number | undefined;
  sort: 'price' | 'newest';
}

/** The least string greater than every string starting with `prefix` (its last character's successor). */
function prefixEnd(prefix: string): string {
  const chars = [...prefix];
  const next = (chars.pop()?.codePointAt(0) ?? 0) + 1;
  // Past the surrogates (never characters of their own), and no further than the last code point.
  return chars.join('') + String.fromCodePoint(next >= 0xd800 && next <= 0xdfff ? 0xe000 : Math.min(next, 0x10ffff));
}

/**
 * The listings whose item name starts with `name`, case aside: a range of `item_name_key` in byte order
 * (collation "C"), the keys from the prefix up to its successor being exactly those starting with it, which
 * a generic plan reads from `market_listings_open_name_key` (a LIKE parameter it cannot turn into an index
 * range); a plain column, so a count reads that index alone.
 */
function namePrefix(name: string): SQL {
  const from = name.toLowerCase();
  return sql`l.item_name_key COLLATE "C" >= ${from} AND l.item_name_key COLLATE "C" < ${prefixEnd(from)}`;
}

function openWhere(f: OpenFilter): SQL {
  const conds: SQL[] = [sql`l.state = 'open'`];
  if (f.collectionId) conds.push(sql`l.collection_id = ${f.collectionId}`);
  if (f.currencyId !== undefined) conds.push(sql`l.currency_id = ${f.currencyId}`);
  if (f.name) conds.push(namePrefix(f.name));
  return sql.join(conds, sql` AND `);
}

/**
 * How far past a page a name search counts its matches ("1,000+"): a prefix of a common name matches
 * thousands of listings, and counting them cost more than the page; the grouped view shows each name's
 * exact count.
 */
export const NAME_COUNT_CAP = 1_000;

/**
 * A page of open listings (`limit` after `offset`) and their total: from the kept counts
 * (`market_open_counts`), or by `f.name` counted up to `NAME_COUNT_CAP` rows past the page (`totalCapped`
 * when more match). A page that is one
 * range of an index in its order (every listing, a collection's or a currency's, newest or cheapest first)
 * is read with its generic plan, good for any values (planning cost more than the read); the others are
 * planned for their values (how many match decides which index to walk).
 */
export async function findOpenListings(
  db: DbOrTx,
  f: OpenFilter,
  limit: number,
  offset: number,
): Promise<{ rows: ListingRow[]; total: number; totalCapped: boolean }> {
  const where = openWhere(f);
  const order = f.sort === 'price' ? sql`l.price, l.id` : NEWEST;
  const count = f.name
    ? sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM market_listings l WHERE ${where} LIMIT ${offset + NAME_COUNT_CAP}) m`
    : sql`SELECT coalesce(sum(n), 0)::int AS n FROM market_open_counts
           WHERE collection_id = ${f.collectionId ?? ''} AND currency_id = ${f.currencyId ?? 0}::int`;
  const ids = (size: SQL | number) =>
    sql`SELECT l.id FROM market_listings l WHERE ${where} ORDER BY ${order} LIMIT ${size} OFFSET ${offset}`;
  const oneIndex = !f.name && !(f.collectionId && f.currencyId !== undefined);
  // The count is one index range (or the kept counts' key) whatever the values: a named statement.
  const [rows, counted] = oneIndex
    ? await readWithGenericPlans(db, (on) =>
        Promise.all([
          queryPlanned<ListingRow>(on, pageOf(ids(pageSize(limit)), order)),
          queryPlanned<{ n: number }>(on, count),
        ]),
      )
    : await Promise.all([
        // Planned for its values, the page's ids alone: planning the join with them cost more than the read.
        queryOnce<{ id: string }>(db, ids(limit)).then((page) =>
          rowsOf(
            db,
            page.map((r) => r.id),
          ),
        ),
        queryPlanned<{ n: number }>(db, count),
      ]);
  const total = counted[0]?.n ?? 0;
  return { rows, total, totalCapped: Boolean(f.name) && total >= offset + NAME_COUNT_CAP };
}

/** Counts the open listings afresh into `market_open_counts` (after a load with the triggers off). */
export async function rebuildMarketOpenCounts(db: DbOrTx): Promise<void> {
  await db.execute(sql`DELETE FROM market_open_counts`);
  await db.execute(sql`
    INSERT INTO market_open_counts (collection_id, currency_id, slot, n)
    SELECT coalesce(collection_id::text, ''), coalesce(currency_id, 0), 0, count(*)
      FROM market_listings WHERE state = 'open'
     GROUP BY GROUPING SETS ((collection_id, currency_id), (collection_id), (currency_id), ())`);
}

/**
 * A page of a member's own listings, every state, newest first, and their total, counted up to `COUNT_CAP`
 * rows past the page (`totalCapped` when more match).
 */
export async function findSellerListings(
  db: DbOrTx,
  sellerId: string,
  limit: number,
  offset: number,
): Promise<{ rows: ListingRow[]; total: number; totalCapped: boolean }> {
  // Named statements: one shape whatever the member, so PostgreSQL keeps its plan instead of planning each call.
  const [rows, count] = await Promise.all([
    queryPlanned<ListingRow>(
      db,
      pageOf(
        sql`SELECT l.id FROM market_listings l WHERE l.seller_id = ${sellerId} ORDER BY ${NEWEST} LIMIT ${pageSize(limit)} OFFSET ${offset}`,
        NEWEST,
      ),
    ),
    queryPlanned<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n
            FROM (SELECT 1 FROM market_listings l WHERE l.seller_id = ${sellerId} LIMIT ${offset + COUNT_CAP}) m`,
    ),
  ]);
  const total = count[0]?.n ?? 0;
  return { rows, total, totalCapped: total >= offset + COUNT_CAP };
}

/** One group of `findItemGroups`: an item name in a currency, its lowest open price and open count. */
export interface ItemGroupRow extends Record<string, unknown> {
  item_name: string;
  currency_id: number;
  lowest: string;
  n: number;
}

/**
 * Up to `limit` groups of open listings by (item name, currency), in that order, after `f.after`: each one
 * ordered range of a partial index that holds the group's rows together with their prices (name first:
 * `market_listings_open_name_currency`; within a collection: `market_listings_open_collection_name`; within
 * a currency: `market_listings_open_currency_name`), so a page reads its groups' rows only. With `f.name`
 * (the start of a name, case aside) the rows come from the prefix's range of
 * `market_listings_open_name_key`, grouped: a page reads every listing of the names it matches.
 */
export async function findItemGroups(
  db: DbOrTx,
  f: {
    collectionId?: string | undefined;
    currencyId?: number | undefined;
    name?: string | undefined;
    after?: { name: string; currencyId: number } | undefined;
  },
  limit: number,
): Promise<ItemGroupRow[]> {
  const conds: SQL[] = [sql`l.state = 'open'`];
  if (f.collectionId) conds.push(sql`l.collection_id = ${f.collectionId}`);
  if (f.currencyId !== undefined) conds.push(sql`l.currency_id = ${f.currencyId}`);
  if (f.name) conds.push(namePrefix(f.name));
  if (f.after) conds.push(sql`(l.item_name, l.currency_id) > (${f.after.name}, ${f.after.currencyId}::int)`);
  const res = await db.execute<ItemGroupRow>(sql`
    SELECT l.item_name, l.currency_id, min(l.price)::text AS lowest, count(*)::int AS n
      FROM market_listings l
     WHERE ${sql.join(conds, sql` AND `)}
     GROUP BY l.item_name, l.currency_id
     ORDER BY l.item_name, l.currency_id
     LIMIT ${limit}`);
  return res.rows;
}

/**
 * Cancels the open listings of the items checkout `checkoutId` granted that `ownerId` still owns (a full
 * refund or lost dispute is about to take those items back). Locks the listings before the items, the
 * order of a purchase, then, the items held (no new listing of them can start), cancels every open
 * listing of them, one committed meanwhile included. Returns the collections of the cancelled listings.
 */
export async function cancelCheckoutListings(db: DbOrTx, checkoutId: string, ownerId: string): Promise<string[]> {
  const held = sql`SELECT i.id FROM items i WHERE i.checkout_id = ${checkoutId} AND i.owner_id = ${ownerId}`;
  await db.execute(
    sql`SELECT l.id FROM market_listings l WHERE l.state = 'open' AND l.item_id IN (${held}) FOR UPDATE OF l`,
  );
  await db.execute(sql`${held} FOR UPDATE OF i`);
  const res = await db.execute<{ collection_id: string }>(sql`
    UPDATE market_listings SET state = 'cancelled'
     WHERE state = 'open' AND item_id IN (${held})
    RETURNING collection_id`);
  return res.rows.map((r) => r.collection_id);
}
