/**
 * SQL of item collections and items (DESIGN §7).
 * Reads other modules' tables: `users` (an item's owner's nickname, and the owner a creator names), joined in the list's one statement.
 */
import type { GroupedItem, Item, ItemCollection, ItemData, OwnCollection } from '@starlight/shared';
import { eq, type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryPlanned } from '../../db/client.ts';
import { cappedTotal, countNow, pageSize, type TotalOf } from '../../db/paging.ts';
import { pgArray } from '../../db/pg-array.ts';
import { itemCollections, items } from '../../db/schema/index.ts';
import { readWithGenericPlans } from '../../db/transaction.ts';
import { newObjectId } from '../../lib/ids.ts';
import type { PostAlong } from '../ledger/ledger.public.ts';

/** A collection row as the service works with it. */
export type CollectionRow = typeof itemCollections.$inferSelect;

type CollectionSqlRow = {
  id: string;
  name: string;
  description: string;
  img_url: string;
  nickname: string;
  redirect_urls: string[];
  cancel_url: string;
  royalty: string;
  created_at: string | Date;
};

const toOwnCollection = (r: CollectionSqlRow): OwnCollection => ({
  _id: r.id,
  name: r.name,
  description: r.description,
  imgUrl: r.img_url,
  creator: { nickname: r.nickname },
  createdAt: new Date(r.created_at).toISOString(),
  redirectUrls: r.redirect_urls,
  cancelUrl: r.cancel_url,
  royalty: r.royalty,
});

/** Collections matching `where`, oldest first, with their creators and app URLs (strip them for others). */
async function selectCollections(db: DbOrTx, where: SQL): Promise<OwnCollection[]> {
  const res = await db.execute<CollectionSqlRow>(sql`
    SELECT c.id, c.name, c.description, c.img_url, u.nickname, c.redirect_urls, c.cancel_url, c.royalty::text AS royalty,
           c.created_at
    FROM item_collections c JOIN users u ON u.id = c.creator_id
    WHERE ${where} ORDER BY c.created_at, c.id`);
  return res.rows.map(toOwnCollection);
}

/** A collection as everyone sees it (without the creator's app URLs). */
export function publicCollection(c: OwnCollection): ItemCollection {
  const { redirectUrls: _r, cancelUrl: _c, royalty: _y, ...shown } = c;
  return shown;
}

/** Every collection (as everyone sees it), and those of `creatorId` with their app URLs. */
export async function findCollections(
  db: DbOrTx,
  creatorId: string | null,
): Promise<{ all: ItemCollection[]; mine: OwnCollection[] }> {
  const [all, mine] = await Promise.all([
    selectCollections(db, sql`true`),
    creatorId ? selectCollections(db, sql`c.creator_id = ${creatorId}`) : Promise.resolve([]),
  ]);
  return { all: all.map(publicCollection), mine };
}

/** The collection `id` row, or null. */
export async function findCollection(db: DbOrTx, id: string): Promise<CollectionRow | null> {
  const [row] = await db.select().from(itemCollections).where(sql`${itemCollections.id} = ${id}`);
  return row ?? null;
}

/** The collection `id` in the creator's wire shape. */
export async function findOwnCollection(db: DbOrTx, id: string): Promise<OwnCollection | null> {
  return (await selectCollections(db, sql`c.id = ${id}`))[0] ?? null;
}

/** Inserts a collection and returns its id. */
export async function insertCollection(
  db: DbOrTx,
  values: Pick<CollectionRow, 'name' | 'description' | 'imgUrl' | 'creatorId' | 'redirectUrls' | 'cancelUrl'>,
): Promise<string> {
  const id = newObjectId();
  await db.insert(itemCollections).values({ id, ...values });
  return id;
}

/** The stored fields of a collection its creator may change (DESIGN §7 `modifyCollection`). */
export type CollectionPatch = Partial<
  Pick<CollectionRow, 'name' | 'description' | 'imgUrl' | 'redirectUrls' | 'cancelUrl' | 'royalty'>
>;

/** Writes `patch` (only the fields it has) on collection `id`. */
export async function updateCollection(db: DbOrTx, id: string, patch: CollectionPatch): Promise<void> {
  if (Object.keys(patch).length === 0) return;
  await db.update(itemCollections).set(patch).where(eq(itemCollections.id, id));
}

/** Item `id`'s collection, owner and the collection's creator (for the creator's check), or null. */
export async function findItemParties(
  db: DbOrTx,
  id: string,
): Promise<{ collectionId: string; ownerId: string; creatorId: string } | null> {
  const res = await db.execute<{ collection_id: string; owner_id: string; creator_id: string }>(sql`
    SELECT i.collection_id, i.owner_id, c.creator_id
    FROM items i JOIN item_collections c ON c.id = i.collection_id WHERE i.id = ${id} FOR UPDATE OF i`);
  const row = res.rows[0];
  return row ? { collectionId: row.collection_id, ownerId: row.owner_id, creatorId: row.creator_id } : null;
}

/** The stored fields of an item its collection's creator may change (DESIGN §7 `modifyItem`). */
export type ItemPatch = Partial<
  Pick<typeof items.$inferInsert, 'name' | 'description' | 'imgUrl' | 'metadata' | 'variabledata' | 'hiddendata'>
>;

/** Writes `patch` (only the fields it has) on item `id`. */
export async function updateItem(db: DbOrTx, id: string, patch: ItemPatch): Promise<void> {
  if (Object.keys(patch).length === 0) return;
  await db.update(items).set(patch).where(eq(items.id, id));
}

/** An item to insert (data as given, already checked). */
export interface NewItem {
  collectionId: string;
  ownerId: string;
  name: string;
  description: string;
  imgUrl: string;
  metadata: ItemData;
  variabledata: ItemData;
  hiddendata: ItemData;
  /** The purchase whose package granted the item, when one did. */
  checkoutId?: string | null;
}

/** The rows of `rows` with new ids, as one `SELECT` over arrays (the columns of `items`, in order). */
function itemRows(rows: readonly NewItem[]): { ids: string[]; select: SQL } {
  const ids = rows.map(() => newObjectId());
  const col = <T>(f: (r: NewItem) => T) => pgArray(rows.map(f) as Array<string | number | boolean | null>);
  const select = sql`SELECT * FROM unnest(${pgArray(ids)}::text[], ${col((r) => r.collectionId)}::text[],
      ${col((r) => r.ownerId)}::text[], ${col((r) => r.name)}::text[], ${col((r) => r.description)}::text[],
      ${col((r) => r.imgUrl)}::text[], ${col((r) => JSON.stringify(r.metadata))}::jsonb[],
      ${col((r) => JSON.stringify(r.variabledata))}::jsonb[], ${col((r) => JSON.stringify(r.hiddendata))}::jsonb[],
      ${col((r) => r.checkoutId ?? null)}::text[])`;
  return { ids, select };
}

const ITEM_COLUMNS = sql`(id, collection_id, owner_id, name, description, img_url, metadata, variabledata, hiddendata, checkout_id)`;

/** Inserts `rows` in one statement and returns their ids, in order. */
export async function insertItems(db: DbOrTx, rows: readonly NewItem[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const { ids, select } = itemRows(rows);
  await db.execute(sql`INSERT INTO items ${ITEM_COLUMNS} ${select}`);
  return ids;
}

/**
 * `rows` inserted by a ledger posting's own statement (`PostAlong`, DESIGN §9: one round trip for the
 * batch), only when the posting is written: `name` names that statement, `ctes` is its CTE
 * `inserted_items` and `columns` its column `items_inserted` (how many were inserted). Returns the new
 * ids in order beside them.
 */
export function insertItemsAlong(name: string, rows: readonly NewItem[]): { ids: string[]; along: PostAlong } {
  const { ids, select } = itemRows(rows);
  return {
    ids,
    along: {
      name,
      ctes: sql`inserted_items AS (
        INSERT INTO items ${ITEM_COLUMNS} SELECT v.* FROM (${select}) v WHERE (SELECT ok FROM ok) RETURNING 1)`,
      columns: sql`(SELECT count(*) FROM inserted_items)::int AS items_inserted`,
    },
  };
}

/**
 * Deletes the items checkout `checkoutId` granted that `ownerId` still owns (a refund takes back the
 * package's items). Returns the collection of each deleted item (one entry per item).
 */
export async function deleteCheckoutItems(db: DbOrTx, checkoutId: string, ownerId: string): Promise<string[]> {
  const res = await db.execute<{ collection_id: string }>(
    sql`DELETE FROM items WHERE checkout_id = ${checkoutId} AND owner_id = ${ownerId} RETURNING collection_id`,
  );
  return res.rows.map((r) => r.collection_id);
}

/** How a private member is named to others (DESIGN §6, as the leaderboard names them). */
const ANONYMOUS = 'Anonymous';

type ItemSqlRow = {
  id: string;
  collection_id: string;
  owner_id: string;
  nickname: string;
  is_anonymous: boolean;
  name: string;
  description: string;
  img_url: string;
  metadata: ItemData;
  variabledata: ItemData;
  hiddendata: ItemData;
  creator_id: string;
  created_at: string | Date;
};

/** Which items a list shows: one item, a collection's, a member's (of one collection, or all). */
export type ItemsFilter = { id: string } | { collectionId: string; ownerId?: string } | { ownerId: string };

/** The WHERE condition (on `i`, items) of `filter`. */
function itemsWhere(filter: ItemsFilter): SQL {
  if ('id' in filter) return sql`i.id = ${filter.id}`;
  const conditions: SQL[] = [];
  if (filter.ownerId !== undefined) conditions.push(sql`i.owner_id = ${filter.ownerId}`);
  if ('collectionId' in filter) conditions.push(sql`i.collection_id = ${filter.collectionId}`);
  return sql.join(conditions, sql` AND `);
}

/**
 * Items matching `filter`, newest first (ties by id), one page, and how many match,
 * counted up to a bound (`totalCapped`: more match than `total`). `viewerId` sees `hiddendata` only on
 * items of collections they created (DESIGN §7). Read in order from an index: a
 * collection's items from `items_collection`, a member's from `items_owner_created` (migration
 * 0019_list_indexes); the page's ids are found first, so a deep page reads only its own rows whole.
 * `totalOf`, when given, answers the total instead of counting at once: it gets the count to run and may
 * answer a kept one (items.totals.ts).
 */
export async function findItems(
  db: DbOrTx,
  filter: ItemsFilter,
  viewerId: string | null,
  page: { limit: number; page: number },
  totalOf: TotalOf = countNow,
): Promise<{ data: Item[]; total: number; totalCapped: boolean }> {
  const offset = (page.page - 1) * page.limit;
  const where = itemsWhere(filter);
  const read = (q: DbOrTx, limit: SQL | number) =>
    queryPlanned<ItemSqlRow>(
      q,
      sql`
      SELECT i.id, i.collection_id, i.owner_id, u.nickname, u.is_anonymous, i.name, i.description, i.img_url,
             i.metadata, i.variabledata, i.hiddendata, c.creator_id, i.created_at
      FROM (SELECT i.id, i.created_at FROM items i WHERE ${where}
            ORDER BY i.created_at DESC, i.id DESC LIMIT ${limit} OFFSET ${offset}) p
      JOIN items i ON i.id = p.id JOIN users u ON u.id = i.owner_id JOIN item_collections c ON c.id = i.collection_id
      ORDER BY p.created_at DESC, p.id DESC`,
    );
  // A collection's list: one index serves it whatever the collection (items_collection), so its generic
  // plan is always right, where planning it on every call cost more than running it. A member's own list
  // gets its generic plan without help (a read-only transaction around it only made it slower), and a
  // member's items of one collection could come from either index, which PostgreSQL picks by their counts.
  const oneIndex = 'collectionId' in filter && filter.ownerId === undefined;
  const [rows, count] = await Promise.all([
    oneIndex ? readWithGenericPlans(db, (q) => read(q, pageSize(page.limit))) : read(db, page.limit),
    totalOf(() => cappedTotal(db, sql`items i WHERE ${where}`, offset)),
  ]);
  return { ...count, data: rows.map((r) => toItem(r, viewerId)) };
}

/**
 * An item row as the wire shows it to `viewerId`: `hiddendata` only to its collection's creator (DESIGN
 * §7); a private owner (`isAnonymous`) named `Anonymous` to everyone but themselves, as on the
 * leaderboard (DESIGN §6).
 */
function toItem(r: ItemSqlRow, viewerId: string | null): Item {
  return {
    _id: r.id,
    itemCollection: r.collection_id,
    owner: { nickname: r.is_anonymous && r.owner_id !== viewerId ? ANONYMOUS : r.nickname },
    name: r.name,
    description: r.description,
    imgUrl: r.img_url,
    metadata: r.metadata,
    variabledata: r.variabledata,
    ...(viewerId !== null && r.creator_id === viewerId ? { hiddendata: r.hiddendata } : {}),
    createdAt: new Date(r.created_at).toISOString(),
  };
}

/**
 * The items of `ownerId` in `collectionId` grouped by name (SPEC §3 grouped item: the count, and the
 * image, description, metadata and variable data of the group's newest item), one page by name, and
 * the number of groups (counted up to a bound, `totalCapped`). Reads only that member's items of that
 * collection, in name order from `items_owner` (owner, collection, name): first the page's names from the
 * index alone, then the items of those names only, so a page costs its own groups' items, not all of the
 * member's items of the collection (a member may hold a thousand items of one collection, each its
 * own group). `totalOf` as for
 * `findItems`.
 */
export async function findGroupedItems(
  db: DbOrTx,
  ownerId: string,
  collectionId: string,
  page: { limit: number; page: number },
  totalOf: TotalOf = countNow,
): Promise<{ data: GroupedItem[]; total: number; totalCapped: boolean }> {
  const where = sql`i.owner_id = ${ownerId} AND i.collection_id = ${collectionId}`;
  const offset = (page.page - 1) * page.limit;
  const [rows, count] = await Promise.all([
    queryPlanned<{
      id: string;
      name: string;
      count: string;
      img_url: string;
      description: string;
      metadata: ItemData;
      variabledata: ItemData;
    }>(
      db,
      sql`
      WITH names AS MATERIALIZED (
        SELECT DISTINCT i.name FROM items i WHERE ${where} ORDER BY i.name LIMIT ${page.limit} OFFSET ${offset})
      SELECT DISTINCT ON (i.name) i.id, i.name, count(*) OVER (PARTITION BY i.name) AS count, i.img_url, i.description,
             i.metadata, i.variabledata
      FROM items i
      WHERE ${where} AND i.name >= (SELECT min(name) FROM names) AND i.name <= (SELECT max(name) FROM names)
      ORDER BY i.name, i.created_at DESC, i.id DESC`,
    ),
    totalOf(() => cappedTotal(db, sql`(SELECT DISTINCT i.name FROM items i WHERE ${where}) g`, offset)),
  ]);
  return {
    ...count,
    data: rows.map((r) => ({
      itemId: r.id,
      name: r.name,
      count: Number(r.count),
      imgUrl: r.img_url,
      description: r.description,
      metadata: r.metadata,
      variabledata: r.variabledata,
    })),
  };
}
