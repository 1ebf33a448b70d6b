/**
 * The marketplace (DESIGN §11.5): an item listed for a price in a currency. An open listing locks its item
 * (one open listing an item; it cannot be gifted or listed again); a purchase moves the price and the item
 * in one transaction. The item's name, image and collection are copied at listing so a listing reads (and
 * filters) without the item, and its history stays after the item moves on.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { currencies } from './bank.ts';
import { money, objectId } from './columns.ts';
import { itemCollections } from './items.ts';
import { users } from './users.ts';

export const marketListings = pgTable(
  'market_listings',
  {
    id: objectId('id').primaryKey(),
    /** The item (no foreign key: a sold listing outlives a refund that takes its item back). */
    itemId: objectId('item_id').notNull(),
    itemName: text('item_name').notNull(),
    /** The name in lower case, the name filter's key (a plain column, so its index answers counts alone). */
    itemNameKey: text('item_name_key').notNull().generatedAlwaysAs(sql`lower(item_name)`),
    itemImgUrl: text('item_img_url').notNull().default(''),
    collectionId: objectId('collection_id')
      .notNull()
      .references(() => itemCollections.id),
    sellerId: objectId('seller_id')
      .notNull()
      .references(() => users.id),
    buyerId: objectId('buyer_id').references(() => users.id),
    currencyId: integer('currency_id')
      .notNull()
      .references(() => currencies.currencyId),
    price: money('price').notNull(),
    /** The collection's royalty (0 to 0.25) when listed: the seller was told what they receive. */
    royalty: numeric('royalty', { precision: 10, scale: 9 }).notNull().default('0'),
    state: text('state').notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    soldAt: timestamp('sold_at', { withTimezone: true }),
  },
  (t) => [
    check('market_listings_state', sql`${t.state} IN ('open', 'sold', 'cancelled')`),
    check('market_listings_price_positive', sql`${t.price} > 0`),
    check('market_listings_royalty', sql`${t.royalty} >= 0 AND ${t.royalty} <= 0.25`),
    // One open listing an item: a second listing of it fails on this index, whatever races.
    uniqueIndex('market_listings_open_item').on(t.itemId).where(sql`${t.state} = 'open'`),
    // Browsing the open listings, newest first, and by price (lowest first) within a currency.
    // These three carry INCLUDE (item_name_key), by hand in migration 0068 (drizzle has no INCLUDE): a search
    // by name checks the name in the index as it walks them.
    index('market_listings_open_newest').on(t.createdAt, t.id).where(sql`${t.state} = 'open'`),
    index('market_listings_open_price').on(t.currencyId, t.price, t.id).where(sql`${t.state} = 'open'`),
    index('market_listings_open_price_any').on(t.price, t.id).where(sql`${t.state} = 'open'`),
    // A collection's by price, and a currency's newest first: with the two above and the collection's below,
    // every browse of one filter and a sort reads one range in its order.
    index('market_listings_open_collection_price').on(t.collectionId, t.price, t.id).where(sql`${t.state} = 'open'`),
    index('market_listings_open_currency_newest').on(t.currencyId, t.createdAt, t.id).where(sql`${t.state} = 'open'`),
    // A collection's open listings, and an item name's (the grouped view and the name filter).
    index('market_listings_open_collection').on(t.collectionId, t.createdAt, t.id).where(sql`${t.state} = 'open'`),
    // In byte order (collation "C"), so a name's prefix is one range of it.
    index('market_listings_open_name_key')
      .on(sql`(${t.itemNameKey} COLLATE "C")`, t.price, t.id)
      .where(sql`${t.state} = 'open'`),
    // Every open listing by item name and currency (the "By item" groups), across all, a collection's, a currency's.
    index('market_listings_open_name_currency').on(t.itemName, t.currencyId, t.price).where(sql`${t.state} = 'open'`),
    index('market_listings_open_collection_name')
      .on(t.collectionId, t.itemName, t.currencyId, t.price)
      .where(sql`${t.state} = 'open'`),
    index('market_listings_open_currency_name').on(t.currencyId, t.itemName, t.price).where(sql`${t.state} = 'open'`),
    // A member's own listings, newest first.
    index('market_listings_seller').on(t.sellerId, t.createdAt, t.id),
  ],
);

/**
 * How many listings are open, kept by statement triggers on `market_listings` (`market_open_counts_keep`) in
 * the listing's own transaction, at four grains: a collection in a currency, a collection (`currency_id` 0),
 * a currency (`collection_id` ''), and every listing ('' and 0). A writer adds to the row of its slot
 * (`pg_backend_pid() % 8`), so concurrent sales rarely wait on one row; a read sums a grain's slots. No
 * foreign keys: it is derived state, rebuilt by `rebuildMarketOpenCounts`.
 */
export const marketOpenCounts = pgTable(
  'market_open_counts',
  {
    collectionId: text('collection_id').notNull(),
    currencyId: integer('currency_id').notNull(),
    slot: smallint('slot').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.collectionId, t.currencyId, t.slot] })],
);
