/** Item collections and items (DESIGN §7; SPEC §3 Item collection, Item, Grouped item; §7 inventory). */
import { z } from 'zod';
import { formatAmount, fromNumeric } from '../money.ts';
import {
  appUrl,
  description,
  fraction,
  IS_INVALID,
  name,
  nickname,
  objectId,
  paging,
  totalCapped,
  url,
} from './common.ts';

/** SPEC §3 item data: nested objects of text, number or boolean values. */
export type ItemData = { [key: string]: string | number | boolean | ItemData };

/** Item data limits (DESIGN §7 "size-limited"): nesting depth, keys per object, text length, JSON size. */
export const ITEM_DATA_LIMITS = { depth: 4, keys: 50, text: 1024, json: 8192 } as const;

const itemValue: z.ZodType<string | number | boolean | ItemData> = z.lazy(() =>
  z.union([z.string().max(ITEM_DATA_LIMITS.text), z.number().finite(), z.boolean(), itemObject]),
);
const itemObject: z.ZodType<ItemData> = z
  .lazy(() =>
    z.record(z.string().min(1).max(64), itemValue).refine((o) => Object.keys(o).length <= ITEM_DATA_LIMITS.keys),
  )
  .meta({ id: 'ItemData', description: 'Nested objects of text, number or boolean values' });

function depthOf(v: unknown): number {
  return v !== null && typeof v === 'object' ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0;
}

/** Item data as a request sends it: checked for shape, depth and size (`contains an invalid value` otherwise). */
export const itemData = itemObject.refine(
  (o) => depthOf(o) <= ITEM_DATA_LIMITS.depth && JSON.stringify(o).length <= ITEM_DATA_LIMITS.json,
  { error: IS_INVALID },
);

/** DESIGN §7 collection as everyone sees it. */
export const itemCollection = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  imgUrl: z.string(),
  creator: z.object({ nickname: z.string() }),
  createdAt: z.string(),
});
export type ItemCollection = z.infer<typeof itemCollection>;

/**
 * A collection as its creator sees it: with the app URLs registered for consent (DESIGN §7) and the
 * royalty each marketplace sale pays them (DESIGN §11.5, a decimal string).
 */
export const ownCollection = itemCollection.extend({
  redirectUrls: z.array(z.string()),
  cancelUrl: z.string(),
  royalty: z.string(),
});

/** A collection's royalty (DESIGN §11.5): 0 to 0.25 of each marketplace sale, kept as a decimal string. */
export const royalty = fraction
  .refine((a) => a <= fromNumeric('0.25'), { error: 'must be at most 0.25 (25%)' })
  .transform((a) => formatAmount(a));
export type OwnCollection = z.infer<typeof ownCollection>;

/** `createCollection {name, description?, imgUrl?, redirectUrls?, cancelUrl?}` (creator or admin) -> `{collection, message}`. */
export const createCollectionRequest = z.strictObject({
  name,
  description: description.optional(),
  imgUrl: url.optional(),
  redirectUrls: z.array(appUrl).max(10).optional(),
  cancelUrl: appUrl.optional(),
});
export type CreateCollectionRequest = z.infer<typeof createCollectionRequest>;
/**
 * `modifyCollection {collectionId, name?, description?, imgUrl?, redirectUrls?, cancelUrl?}` (the collection's
 * creator) -> `{collection, message}`: the fields sent replace the stored ones; `''` clears a description,
 * an image or the cancel URL, `[]` every redirect URL.
 */
export const modifyCollectionRequest = z.strictObject({
  collectionId: objectId,
  name: name.optional(),
  description: description.or(z.literal('')).optional(),
  imgUrl: url.or(z.literal('')).optional(),
  redirectUrls: z.array(appUrl).max(10).optional(),
  cancelUrl: appUrl.or(z.literal('')).optional(),
  royalty: royalty.optional(),
});
export type ModifyCollectionRequest = z.output<typeof modifyCollectionRequest>;
export const collectionResponse = z.object({ collection: ownCollection, message: z.string() });
export type CollectionResponse = z.infer<typeof collectionResponse>;
/** `getCollections` -> `{data, message}`: every collection (ours: `mine`, the caller's own with their URLs). */
export const collectionsResponse = z.object({
  data: z.array(itemCollection),
  mine: z.array(ownCollection),
  message: z.string(),
});
export type CollectionsResponse = z.infer<typeof collectionsResponse>;

/** DESIGN §7 item; `hiddendata` only for the collection's creator. */
export const item = z.object({
  _id: z.string(),
  itemCollection: z.string(),
  owner: z.object({ nickname: z.string() }),
  name: z.string(),
  description: z.string(),
  imgUrl: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  variabledata: z.record(z.string(), z.unknown()),
  hiddendata: z.record(z.string(), z.unknown()).optional(),
  createdAt: z.string(),
});
export type Item = z.infer<typeof item>;

/** `createItem` (the collection's creator) -> `{item, message}`. */
export const createItemRequest = z.strictObject({
  itemCollection: objectId,
  owner: nickname,
  name,
  description: description.optional(),
  imgUrl: url.optional(),
  metadata: itemData.optional(),
  variabledata: itemData.optional(),
  hiddendata: itemData.optional(),
});
export type CreateItemRequest = z.infer<typeof createItemRequest>;
/**
 * `modifyItem {itemId, name?, description?, imgUrl?, metadata?, variabledata?, hiddendata?}` (the collection's
 * creator) -> `{item, message}`: the fields sent replace the stored ones (`''` clears a description or image);
 * the owner never changes here.
 */
export const modifyItemRequest = z.strictObject({
  itemId: objectId,
  name: name.optional(),
  description: description.or(z.literal('')).optional(),
  imgUrl: url.or(z.literal('')).optional(),
  metadata: itemData.optional(),
  variabledata: itemData.optional(),
  hiddendata: itemData.optional(),
});
export type ModifyItemRequest = z.infer<typeof modifyItemRequest>;
export const itemResponse = z.object({ item, message: z.string() });
export type ItemResponse = z.infer<typeof itemResponse>;

/** `getItems {itemCollection, paging}`: a collection's items, newest first. */
export const getItemsRequest = z.strictObject({ itemCollection: objectId, paging });
export type GetItemsRequest = z.infer<typeof getItemsRequest>;
/** `getUserItems {filters?, paging}`: the caller's items, newest first. */
export const getUserItemsRequest = z.strictObject({
  filters: z.strictObject({ itemCollection: objectId.optional() }).optional(),
  paging,
});
export type GetUserItemsRequest = z.infer<typeof getUserItemsRequest>;
export const itemsResponse = z.object({
  data: z.array(item),
  total: z.number().int(),
  totalCapped,
  message: z.string(),
});
export type ItemsResponse = z.infer<typeof itemsResponse>;

/**
 * SPEC §3 grouped item: the caller's items of one name in a collection, with their count. `itemId` is the
 * group's newest item, the one a gift of the group sends (DESIGN §11.5).
 */
export const groupedItem = z.object({
  itemId: z.string(),
  name: z.string(),
  count: z.number().int(),
  imgUrl: z.string(),
  description: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  variabledata: z.record(z.string(), z.unknown()),
});
export type GroupedItem = z.infer<typeof groupedItem>;
/** `getUserItemsGrouped {filters:{itemCollection}, paging}` -> `{data, total, message}`. */
export const getUserItemsGroupedRequest = z.strictObject({
  filters: z.strictObject({ itemCollection: objectId }),
  paging,
});
export type GetUserItemsGroupedRequest = z.infer<typeof getUserItemsGroupedRequest>;
export const groupedItemsResponse = z.object({
  data: z.array(groupedItem),
  total: z.number().int(),
  totalCapped,
  message: z.string(),
});
export type GroupedItemsResponse = z.infer<typeof groupedItemsResponse>;

/**
 * A collection the caller holds items of, with how many (`count`, counted up to COUNT_CAP: `countCapped`
 * when they hold more).
 */
export const heldCollection = z.object({
  _id: z.string(),
  name: z.string(),
  count: z.number().int(),
  countCapped: z.boolean(),
});
export type HeldCollection = z.infer<typeof heldCollection>;
/** `getUserCollections {}` (member) -> `{data, message}`: the caller's collections by name. */
export const getUserCollectionsRequest = z.strictObject({});
export const userCollectionsResponse = z.object({ data: z.array(heldCollection), message: z.string() });
export type UserCollectionsResponse = z.infer<typeof userCollectionsResponse>;

/**
 * `giftItem {itemId, recipientNickName}` (member) -> `{message}` (DESIGN §11.5): one of the caller's items
 * moves to another active member, who is notified (`items_received`).
 */
export const giftItemRequest = z.strictObject({ itemId: objectId, recipientNickName: nickname });
export type GiftItemRequest = z.infer<typeof giftItemRequest>;
