/** The marketplace under /api/market (DESIGN §11.5): listings of items for a price in a currency. */
import { z } from 'zod';
import { amountInput, currencyId, decimalString, objectId, paging, totalCapped } from './common.ts';

export const LISTING_STATES = ['open', 'sold', 'cancelled'] as const;
export type ListingState = (typeof LISTING_STATES)[number];

/** The most a collection's royalty can be (DESIGN §11.5): a quarter of each sale. */
export const MAX_ROYALTY = '0.25';

/**
 * A listing (DESIGN §11.5). Ours: `royalty` (the collection's share, fixed when listed) and
 * `sellerReceives` (the price less the royalty), which the sale's page shows.
 */
export const listing = z.object({
  _id: z.string(),
  item: z.object({ _id: z.string(), name: z.string(), imgUrl: z.string(), itemCollection: z.string() }),
  seller: z.object({ nickname: z.string() }),
  buyer: z.object({ nickname: z.string() }).nullable(),
  currencyId: z.number().int(),
  price: decimalString,
  royalty: decimalString,
  sellerReceives: decimalString,
  state: z.enum(LISTING_STATES),
  createdAt: z.string(),
  soldAt: z.string().nullable(),
});
export type Listing = z.infer<typeof listing>;

/** `createListing {itemId, currencyId, price}`: one of the caller's items, for a price at the currency's precision. */
export const createListingRequest = z.strictObject({ itemId: objectId, currencyId, price: amountInput });
export type CreateListingRequest = z.input<typeof createListingRequest>;
export type CreateListingInput = z.output<typeof createListingRequest>;

/** `cancelListing {listingId}` and `buy {listingId}`. */
export const listingIdRequest = z.strictObject({ listingId: objectId });
export type ListingIdRequest = z.infer<typeof listingIdRequest>;

export const listingResponse = z.object({ listing, message: z.string() });
export type ListingResponse = z.infer<typeof listingResponse>;

/** `listings {paging, itemCollectionId?, name?, currencyId?, sort?}`: open listings; `name` matches the start of a name. */
export const listingsRequest = z.strictObject({
  paging,
  itemCollectionId: objectId.optional(),
  name: z.string().trim().min(1).max(127).optional(),
  currencyId: currencyId.optional(),
  sort: z.enum(['price', 'newest']).optional(),
});
export type ListingsRequest = z.input<typeof listingsRequest>;

/** `myListings {paging}`: the caller's listings, every state, newest first. */
export const myListingsRequest = z.strictObject({ paging });
export type MyListingsRequest = z.infer<typeof myListingsRequest>;

export const listingsResponse = z.object({
  listings: z.array(listing),
  total: z.number().int(),
  /** True when `total` is a lower bound: a name search counts up to 1,000 past the page, the rest 10,000. */
  totalCapped,
  message: z.string(),
});
export type ListingsResponse = z.infer<typeof listingsResponse>;

/** Where a page of `listingsByItem` ends: its last group's name and currency (the keyset order). */
export const itemGroupCursor = z.strictObject({
  name: z.string().min(1).max(127),
  currencyId: z.number().int().min(1),
});
export type ItemGroupCursor = z.infer<typeof itemGroupCursor>;

/**
 * Ours: `listingsByItem {limit?, after?, itemCollectionId?, currencyId?, name?}` (public): every open listing
 * grouped by item name and currency, by name then currency, `limit` groups (1..50, default 20) after the
 * group `after`.
 */
export const listingsByItemRequest = z.strictObject({
  limit: z.number().int().min(1).max(50).optional(),
  after: itemGroupCursor.optional(),
  itemCollectionId: objectId.optional(),
  currencyId: currencyId.optional(),
  /** Only names starting with this, case aside, as `listings`' `name`. */
  name: z.string().trim().min(1).max(127).optional(),
});
export type ListingsByItemRequest = z.input<typeof listingsByItemRequest>;

/** One item name in one currency: the lowest open price and how many listings are open. */
export const itemGroup = z.object({
  name: z.string(),
  currencyId: z.number().int(),
  lowestPrice: decimalString,
  count: z.number().int(),
});
export type ItemGroup = z.infer<typeof itemGroup>;

/** A page of groups and the cursor of the next one (null on the last page). */
export const listingsByItemResponse = z.object({
  groups: z.array(itemGroup),
  next: itemGroupCursor.nullable(),
  message: z.string(),
});
export type ListingsByItemResponse = z.infer<typeof listingsByItemResponse>;
