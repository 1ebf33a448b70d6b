/**
 * Item collections and items (DESIGN §7; SPEC §2 Game Items, Creator console): creators (and admins)
 * run collections; only a collection's creator adds items to it, for any member; members read their own
 * items, grouped by name; `hiddendata` reaches only the collection's creator.
 */
import {
  AppError,
  type CollectionResponse,
  type CollectionsResponse,
  type CreateCollectionRequest,
  type CreateItemRequest,
  type GetItemsRequest,
  type GetUserItemsGroupedRequest,
  type GetUserItemsRequest,
  type GroupedItemsResponse,
  type ItemResponse,
  type ItemsResponse,
  type ModifyCollectionRequest,
  type ModifyItemRequest,
  type UserCollectionsResponse,
} from '@starlight/shared';
import type { Db } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { AuthUser } from '../../http/access.ts';
import type { KeptTotals } from '../../lib/kept-totals.ts';
import type { LiveChanges } from '../../lib/live-changes.ts';
import { findUserByNickname } from '../accounts/accounts.public.ts';
import { findHeldCollections } from './held-collections.queries.ts';
import {
  findCollection,
  findCollections,
  findGroupedItems,
  findItemParties,
  findItems,
  findOwnCollection,
  insertCollection,
  insertItems,
  updateCollection,
  updateItem,
} from './items.queries.ts';
import type { CollectionTotals } from './items.totals.ts';
import { hasOpenListing } from './ownership.queries.ts';

/** The 409 of a creator changing an item its owner has listed on the market. */
export const ITEM_LISTED_UNCHANGED =
  'This item is listed on the market: it cannot be changed until it sells or the listing is cancelled';

/** `createCollection` (creator or admin; DESIGN §7): the caller's new collection with its app URLs. */
export async function createCollection(
  db: Db,
  creator: AuthUser,
  input: CreateCollectionRequest,
): Promise<CollectionResponse> {
  const id = await insertCollection(db, {
    name: input.name,
    description: input.description ?? '',
    imgUrl: input.imgUrl ?? '',
    creatorId: creator.id,
    redirectUrls: input.redirectUrls ?? [],
    cancelUrl: input.cancelUrl ?? '',
  });
  const collection = await findOwnCollection(db, id);
  if (!collection) throw new Error(`collection ${id} vanished`);
  return { collection, message: `Collection ${input.name} created` };
}

/** `getCollections` (public): every collection, and the caller's own with their app URLs (`mine`). */
export async function getCollections(db: Db, viewer: AuthUser | null): Promise<CollectionsResponse> {
  const { all, mine } = await findCollections(db, viewer?.id ?? null);
  return { data: all, mine, message: all.length === 0 ? 'No Data' : `Got ${all.length} collection(s)` };
}

/**
 * `createItem` (DESIGN §7): only the collection's creator adds an item, owned by the member named
 * `owner`. Throws NOT_FOUND (`Collection not found`, `User not found`) and FORBIDDEN (another's collection).
 */
export async function createItem(
  db: Db,
  creator: AuthUser,
  input: CreateItemRequest,
  changes: LiveChanges,
): Promise<ItemResponse> {
  return inTransaction(db, async (tx) => {
    const collection = await findCollection(tx, input.itemCollection);
    if (!collection) throw new AppError('NOT_FOUND', 'Collection not found');
    if (collection.creatorId !== creator.id)
      throw new AppError('FORBIDDEN', "Only the collection's creator adds items to it");
    const owner = await findUserByNickname(tx, input.owner);
    if (!owner) throw new AppError('NOT_FOUND', 'User not found');
    const [id] = await insertItems(tx, [
      {
        collectionId: collection.id,
        ownerId: owner.id,
        name: input.name,
        description: input.description ?? '',
        imgUrl: input.imgUrl ?? '',
        metadata: input.metadata ?? {},
        variabledata: input.variabledata ?? {},
        hiddendata: input.hiddendata ?? {},
      },
    ]);
    if (!id) throw new Error('the item was not inserted');
    const { data } = await findItems(tx, { id }, creator.id, { limit: 1, page: 1 });
    const item = data[0];
    if (!item) throw new Error(`item ${id} vanished`);
    changes.touchCollection(collection.id);
    // The owner's own item totals (lib/kept-totals.ts) count it too.
    changes.touchUser(owner.id);
    return { item, message: 'Item created' };
  });
}

/** The fields of `input` that were sent, without `skip` (the object's id). */
function sentFields<T extends object>(input: T, skip: keyof T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([k, v]) => k !== skip && v !== undefined)) as Partial<T>;
}

/**
 * `modifyCollection` (DESIGN §7, the collection's creator): replaces the fields sent (name, description,
 * image, the app URLs a consent request may name). Throws NOT_FOUND `Collection not found` and
 * FORBIDDEN (another's collection, an admin's included).
 */
export async function modifyCollection(
  db: Db,
  creator: AuthUser,
  input: ModifyCollectionRequest,
): Promise<CollectionResponse> {
  const found = await findCollection(db, input.collectionId);
  if (!found) throw new AppError('NOT_FOUND', 'Collection not found');
  if (found.creatorId !== creator.id) throw new AppError('FORBIDDEN', "Only the collection's creator changes it");
  await updateCollection(db, found.id, sentFields(input, 'collectionId'));
  const collection = await findOwnCollection(db, found.id);
  if (!collection) throw new Error(`collection ${found.id} vanished`);
  return { collection, message: `Collection ${collection.name} updated` };
}

/**
 * `modifyItem` (DESIGN §7, the collection's creator): replaces the fields sent of one item (name,
 * description, image, metadata, variable and hidden data); its owner keeps it. Throws NOT_FOUND
 * `Item not found`, FORBIDDEN (an item of another's collection) and CONFLICT (the item is listed on the
 * market, until it sells or the listing is cancelled).
 */
export async function modifyItem(
  db: Db,
  creator: AuthUser,
  input: ModifyItemRequest,
  changes: LiveChanges,
): Promise<ItemResponse> {
  return inTransaction(db, async (tx) => {
    const parties = await findItemParties(tx, input.itemId);
    if (!parties) throw new AppError('NOT_FOUND', 'Item not found');
    if (parties.creatorId !== creator.id)
      throw new AppError('FORBIDDEN', "Only the collection's creator changes its items");
    // DESIGN §11.5: a listed item is locked to its listing; a buyer gets the item as listed. The item's row
    // lock (findItemParties) orders this with a listing being created.
    if (await hasOpenListing(tx, input.itemId)) throw new AppError('CONFLICT', ITEM_LISTED_UNCHANGED);
    await updateItem(tx, input.itemId, sentFields(input, 'itemId'));
    const { data } = await findItems(tx, { id: input.itemId }, creator.id, { limit: 1, page: 1 });
    const item = data[0];
    if (!item) throw new Error(`item ${input.itemId} vanished`);
    // The owner's open pages show the item's new face.
    changes.touchUser(parties.ownerId);
    return { item, message: `Item ${item.name} updated` };
  });
}

const listed = <T>(found: { data: T[]; total: number; totalCapped: boolean }) => ({
  ...found,
  message: found.total === 0 ? 'No Data' : `Got ${found.total}`,
});

/**
 * `getItems {itemCollection, paging}` (member): a collection's items; `hiddendata` only for its creator.
 * The total is the collection's kept one (`totals`, items.totals.ts). Throws NOT_FOUND `Collection not found`.
 */
export async function getItems(
  db: Db,
  viewer: AuthUser,
  input: GetItemsRequest,
  totals: CollectionTotals,
): Promise<ItemsResponse> {
  const collectionId = input.itemCollection;
  const offset = (input.paging.page - 1) * input.paging.limit;
  const found = await findItems(db, { collectionId }, viewer.id, input.paging, (count) =>
    totals.total(collectionId, String(offset), count),
  );
  // Items exist only in a collection that exists (a foreign key; collections are never deleted), so the
  // collection is looked up only when it shows none: one round trip fewer on every other page view.
  if (found.total === 0 && !(await findCollection(db, collectionId))) {
    throw new AppError('NOT_FOUND', 'Collection not found');
  }
  return listed(found);
}

/**
 * `getUserItems {filters?, paging}` (member): the caller's own items, newest first. The total is the
 * member's kept one (`totals`, lib/kept-totals.ts): every write of a member's items names them
 * (`touchUser`: a creator's new item, opened chips, a package's ships, a refund's take-back).
 */
export async function getUserItems(
  db: Db,
  member: AuthUser,
  input: GetUserItemsRequest,
  totals: KeptTotals,
): Promise<ItemsResponse> {
  const collectionId = input.filters?.itemCollection;
  const filter = collectionId ? { ownerId: member.id, collectionId } : { ownerId: member.id };
  const key = JSON.stringify(['items', collectionId ?? null, (input.paging.page - 1) * input.paging.limit]);
  return listed(await findItems(db, filter, member.id, input.paging, (count) => totals.total(member.id, key, count)));
}

/**
 * `getUserItemsGrouped {filters:{itemCollection}, paging}` (member): the caller's items of a collection by
 * name; the total as for `getUserItems`.
 */
export async function getUserItemsGrouped(
  db: Db,
  member: AuthUser,
  input: GetUserItemsGroupedRequest,
  totals: KeptTotals,
): Promise<GroupedItemsResponse> {
  const collectionId = input.filters.itemCollection;
  const key = JSON.stringify(['grouped', collectionId, (input.paging.page - 1) * input.paging.limit]);
  return listed(
    await findGroupedItems(db, member.id, collectionId, input.paging, (count) => totals.total(member.id, key, count)),
  );
}

/**
 * `getUserCollections {}` (member): the collections the caller holds items of, by name, with their
 * counts (`findHeldCollections`). Only the caller's own items are read.
 */
export async function getUserCollections(db: Db, member: AuthUser): Promise<UserCollectionsResponse> {
  const data = await findHeldCollections(db, member.id);
  return { data, message: data.length === 0 ? 'No Data' : `Got ${data.length} collection(s)` };
}
