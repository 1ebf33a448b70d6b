/**
 * The marketplace (DESIGN §11.5): a member lists one of their items for a price in a transferable
 * currency; the open listing locks the item (no gift, no second listing) until it is bought or cancelled.
 * A purchase, in one transaction under the caller's Idempotency-Key, pays the seller (category 50 Market
 * Purchase) and the collection's creator their royalty (category 51 Market Royalty, fixed when listed),
 * moves the item to the buyer and closes the listing: concurrent buyers queue on the listing's row lock,
 * one wins and the others are told it sold.
 */
import {
  type Amount,
  AppError,
  type CreateListingInput,
  feeOf,
  formatAmount,
  fromNumeric,
  type Listing,
  type ListingResponse,
  type ListingsByItemRequest,
  type ListingsByItemResponse,
  type ListingsRequest,
  type ListingsResponse,
  TX_CATEGORY,
} from '@starlight/shared';
import type { Db, Tx } from '../../db/client.ts';
import type { AuthUser } from '../../http/access.ts';
import type { LiveChanges } from '../../lib/live-changes.ts';
import { requireCurrency, requireNotFrozen, requirePrecision } from '../bank/currencies.service.ts';
import { lockItem, moveItemAlong } from '../items/items.public.ts';
import { type Entry, lockBalances, postEntries } from '../ledger/ledger.public.ts';
import { insertNotificationsAlong } from '../notifications/notifications.public.ts';
import {
  cancelOpenListing,
  findItemGroups,
  findListing,
  findOpenListings,
  findSellerListings,
  insertListing,
  type ListingRow,
  lockListing,
  sellListingAlong,
} from './market.queries.ts';

/** The 404 of a listing id that names none. */
export const LISTING_NOT_FOUND = 'Listing not found';

/** What the seller receives of `price` after the royalty (rounded up to the currency's precision). */
function split(price: Amount, royalty: string, precision: number): { royalty: Amount; seller: Amount } {
  const cut = feeOf(price, fromNumeric(royalty), precision);
  return { royalty: cut, seller: (price - cut) as Amount };
}

/** A listing as the wire shows it (prices at 9 decimals, as the ledger keeps them). */
export function toListing(row: ListingRow): Listing {
  const price = fromNumeric(row.price);
  const { seller } = split(price, row.royalty, 9);
  const iso = (d: Date | string) => new Date(d).toISOString();
  return {
    _id: row.id,
    item: { _id: row.item_id, name: row.item_name, imgUrl: row.item_img_url, itemCollection: row.collection_id },
    seller: { nickname: row.seller },
    buyer: row.buyer ? { nickname: row.buyer } : null,
    currencyId: row.currency_id,
    price: formatAmount(price),
    royalty: row.royalty,
    sellerReceives: formatAmount(seller),
    state: row.state,
    createdAt: iso(row.created_at),
    soldAt: row.sold_at ? iso(row.sold_at) : null,
  };
}

/** The listing `id` read after a change; it exists (the change just wrote it). */
async function reread(tx: Tx, id: string): Promise<Listing> {
  const row = await findListing(tx, id);
  if (!row) throw new AppError('NOT_FOUND', LISTING_NOT_FOUND);
  return toListing(row);
}

/**
 * `createListing {itemId, currencyId, price}` in `tx`: 404 `Item not found` unless the caller owns the
 * item (another's is not told apart from none); 404 `Currency not found`; 409 when the currency cannot be
 * transferred or is frozen, or the item is already listed; 400 when the price has more decimals than the
 * currency. The collection's royalty is fixed on the listing, so the seller knows what they receive.
 */
export async function createListing(tx: Tx, seller: AuthUser, input: CreateListingInput): Promise<ListingResponse> {
  const item = await lockItem(tx, input.itemId);
  if (!item || item.owner_id !== seller.id) throw new AppError('NOT_FOUND', 'Item not found');
  const currency = await requireCurrency(tx, input.currencyId);
  if (!currency.canTransfer) throw new AppError('CONFLICT', `${currency.ticker} cannot be transferred`);
  requireNotFrozen(currency);
  requirePrecision(input.price, currency, 'price');
  const id = await insertListing(tx, {
    itemId: item.id,
    itemName: item.name,
    itemImgUrl: item.img_url,
    collectionId: item.collection_id,
    sellerId: seller.id,
    currencyId: currency.currencyId,
    price: formatAmount(input.price),
    royalty: item.royalty,
  });
  if (!id) throw new AppError('CONFLICT', 'This item is already listed');
  const listing = await reread(tx, id);
  return {
    listing,
    message: `${item.name} is listed for ${formatAmount(input.price, currency.precision)} ${currency.ticker}`,
  };
}

/** The listing `listingId` locked and still open; 404 when none, 409 when it sold or was cancelled. */
async function lockOpen(tx: Tx, listingId: string): Promise<ListingRow> {
  const row = await lockListing(tx, listingId);
  if (!row) throw new AppError('NOT_FOUND', LISTING_NOT_FOUND);
  if (row.state !== 'open') throw new AppError('CONFLICT', `This listing has been ${row.state}`);
  return row;
}

/** `cancelListing {listingId}` in `tx`: the seller's own open listing; another's is 404, a closed one 409. */
export async function cancelListing(tx: Tx, seller: AuthUser, listingId: string): Promise<ListingResponse> {
  const row = await lockListing(tx, listingId);
  if (!row || row.seller_id !== seller.id) throw new AppError('NOT_FOUND', LISTING_NOT_FOUND);
  if (row.state !== 'open') throw new AppError('CONFLICT', `This listing has been ${row.state}`);
  await cancelOpenListing(tx, row.id);
  return { listing: await reread(tx, row.id), message: `The listing of ${row.item_name} is cancelled` };
}

/**
 * `buy {listingId}` in `tx` (under the caller's Idempotency-Key): 404 unknown; 409 sold or cancelled,
 * one's own listing, a currency no longer transferable or frozen, `Insufficient funds`, or an item its
 * seller no longer holds (nothing moves). Pays the seller the price less the royalty (category 50) and
 * the creator the royalty (category 51, none when the creator is the buyer or the seller), moves the item,
 * closes the listing, and tells the seller their item sold: the listing and the item are locked first,
 * then the three balance rows, and the rest is one statement (`sellListingAlong`), so the creator's row,
 * which every sale of the collection credits, is held for that statement and the commit only.
 */
export async function buyListing(
  tx: Tx,
  buyer: AuthUser,
  listingId: string,
  changes: LiveChanges,
): Promise<ListingResponse> {
  const row = await lockOpen(tx, listingId);
  if (row.seller_id === buyer.id) throw new AppError('CONFLICT', 'You cannot buy your own listing');
  const currency = await requireCurrency(tx, row.currency_id);
  if (!currency.canTransfer) throw new AppError('CONFLICT', `${currency.ticker} cannot be transferred`);
  requireNotFrozen(currency);
  const item = await lockItem(tx, row.item_id);
  if (!item || item.owner_id !== row.seller_id) throw new AppError('CONFLICT', 'This item is no longer for sale');
  const price = fromNumeric(row.price);
  const { royalty, seller } = split(price, row.royalty, currency.precision);
  const creatorPaid = royalty > 0n && item.creator_id !== buyer.id && item.creator_id !== row.seller_id;
  const locked = await lockBalances(tx, 'market_buy_lock', {
    userIds: [...new Set([buyer.id, row.seller_id, item.creator_id])],
    currencyIds: [currency.currencyId],
  });
  if (!locked?.balances.covers(buyer.id, currency.currencyId, price)) {
    throw new AppError('CONFLICT', 'Insufficient funds');
  }
  const base = { currencyId: currency.currencyId, executorId: buyer.id, senderId: buyer.id, reference: row.id };
  const note = `Market: ${row.item_name}`;
  const entries: Entry[] = [
    // The creator's share stays with the seller when the seller is the creator.
    {
      ...base,
      category: TX_CATEGORY.MarketPurchase,
      amount: (creatorPaid || item.creator_id === buyer.id ? seller : price) as Amount,
      recipientId: row.seller_id,
      note,
    },
  ];
  if (creatorPaid) {
    entries.push({ ...base, category: TX_CATEGORY.MarketRoyalty, amount: royalty, recipientId: item.creator_id, note });
  }
  const paid = `${formatAmount(price, currency.precision)} ${currency.ticker}`;
  const notified = insertNotificationsAlong([
    {
      userId: row.seller_id,
      kind: 'transfer_received',
      title: `${row.item_name} sold`,
      body: `${buyer.nickname} bought ${row.item_name} for ${paid}.`,
      link: '/market?tab=mine',
    },
  ]);
  const moved = moveItemAlong(row.item_id, row.seller_id, buyer.id);
  const written = await postEntries<{ moved: number; sold_at: Date | string | null }>(
    tx,
    entries,
    changes,
    sellListingAlong(row.id, buyer.id, moved, notified),
  );
  // Both are locked above (the listing open, the item the seller's): neither can fail here.
  if (written.moved !== 1 || written.sold_at === null)
    throw new AppError('CONFLICT', 'This item is no longer for sale');
  changes.touchCollection(row.collection_id);
  changes.touchNotifications(notified.ids);
  const listing = toListing({ ...row, buyer: buyer.nickname, state: 'sold', sold_at: written.sold_at });
  return { listing, message: `You bought ${row.item_name} for ${paid}` };
}

/** `listings {paging, itemCollectionId?, name?, currencyId?, sort?}`: open listings, newest first by default. */
export async function listListings(db: Db, input: ListingsRequest): Promise<ListingsResponse> {
  const { limit, page } = input.paging;
  const { rows, total, totalCapped } = await findOpenListings(
    db,
    {
      collectionId: input.itemCollectionId,
      name: input.name,
      currencyId: input.currencyId === undefined ? undefined : Number(input.currencyId),
      sort: input.sort ?? 'newest',
    },
    limit,
    (page - 1) * limit,
  );
  return { listings: rows.map(toListing), total, totalCapped, message: 'OK' };
}

/** The groups `listingsByItem` answers when no `limit` is given. */
const ITEM_GROUPS_DEFAULT = 20;

/**
 * `listingsByItem {limit?, after?, itemCollectionId?, currencyId?, name?}`: the open listings (of the names
 * starting with `name`, case aside, when given) grouped by item name and currency (the lowest price, how
 * many), by name then currency, keyset-paged after the group `after`; `next` names the last group when more
 * may follow.
 */
export async function listingsByItem(db: Db, input: ListingsByItemRequest): Promise<ListingsByItemResponse> {
  const limit = input.limit ?? ITEM_GROUPS_DEFAULT;
  const rows = await findItemGroups(
    db,
    {
      collectionId: input.itemCollectionId,
      currencyId: input.currencyId === undefined ? undefined : Number(input.currencyId),
      name: input.name,
      after: input.after,
    },
    limit + 1,
  );
  const groups = rows.slice(0, limit).map((r) => ({
    name: r.item_name,
    currencyId: r.currency_id,
    lowestPrice: formatAmount(fromNumeric(r.lowest)),
    count: r.n,
  }));
  const last = groups.at(-1);
  const next = rows.length > limit && last ? { name: last.name, currencyId: last.currencyId } : null;
  return { groups, next, message: groups.length === 0 ? 'No Data' : `Got ${groups.length} item(s)` };
}

/** `myListings {paging}`: the caller's listings, every state, newest first. */
export async function myListings(
  db: Db,
  seller: AuthUser,
  paging: { limit: number; page: number },
): Promise<ListingsResponse> {
  const { rows, total, totalCapped } = await findSellerListings(
    db,
    seller.id,
    paging.limit,
    (paging.page - 1) * paging.limit,
  );
  return { listings: rows.map(toListing), total, totalCapped, message: 'OK' };
}
