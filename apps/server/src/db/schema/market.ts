/**
 * The marketplace (DESIGN §11.5): an item listed for a price in a currency. An open listing locks its item
 * (one open listing an item; it cannot be gifted or listed again); a purchase moves the price and the item
 * in one transaction. The item's name, image and collection are copied at listing so a listing reads (and
 * filters) without the item, and its history stays after the item moves on.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, numeric, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
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
    index('market_listings_open_newest').on(t.createdAt, t.id).where(sql`${t.state} = 'open'`),
    index('market_listings_open_price').on(t.currencyId, t.price, t.id).where(sql`${t.state} = 'open'`),
    index('market_listings_open_price_any').on(t.price, t.id).where(sql`${t.state} = 'open'`),
    // A collection's open listings, and an item name's (the grouped view and the name filter).
    index('market_listings_open_collection').on(t.collectionId, t.createdAt, t.id).where(sql`${t.state} = 'open'`),
    index('market_listings_open_name_prefix')
      .on(sql`(lower(${t.itemName}) COLLATE "C")`, t.price, t.id)
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
