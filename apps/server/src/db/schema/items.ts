/** Game items grouped in collections that creators run (SPEC §3, DESIGN §7). */
import type { ItemData } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { check, index, jsonb, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { checkoutTransactions } from './checkout.ts';
import { objectId } from './columns.ts';
import { users } from './users.ts';

/**
 * A collection of items, run by its creator. `redirectUrls` and `cancelUrl` are the creator app's URLs
 * a consent request may name (DESIGN §7: exact match). `royalty`: the creator's share of each resale.
 */
export const itemCollections = pgTable(
  'item_collections',
  {
    id: objectId('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    imgUrl: text('img_url').notNull().default(''),
    creatorId: objectId('creator_id')
      .notNull()
      .references(() => users.id),
    redirectUrls: text('redirect_urls').array().notNull().default(sql`'{}'::text[]`),
    cancelUrl: text('cancel_url').notNull().default(''),
    /** The share of each marketplace sale that goes to the creator (DESIGN §11.5): 0 to 0.25. */
    royalty: numeric('royalty', { precision: 10, scale: 9 }).notNull().default('0'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('item_collections_creator').on(t.creatorId),
    check('item_collections_royalty', sql`${t.royalty} >= 0 AND ${t.royalty} <= 0.25`),
  ],
);

/**
 * One item, owned by a member. `hiddendata` reaches only the collection's creator. `checkoutId` names
 * the purchase whose package granted it (null otherwise), so a refund can take it back.
 */
export const items = pgTable(
  'items',
  {
    id: objectId('id').primaryKey(),
    collectionId: objectId('collection_id')
      .notNull()
      .references(() => itemCollections.id),
    ownerId: objectId('owner_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    imgUrl: text('img_url').notNull().default(''),
    metadata: jsonb('metadata').$type<ItemData>().notNull().default({}),
    variabledata: jsonb('variabledata').$type<ItemData>().notNull().default({}),
    hiddendata: jsonb('hiddendata').$type<ItemData>().notNull().default({}),
    checkoutId: objectId('checkout_id').references(() => checkoutTransactions.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('items_owner').on(t.ownerId, t.collectionId, t.name),
    // A collection's items in the list's whole order (migration 0028): a page needs no sort and a deep
    // one reads its ids index-only.
    index('items_collection').on(t.collectionId, t.createdAt, t.id),
    // A member's items newest first (getUserItems).
    index('items_owner_created').on(t.ownerId, t.createdAt, t.id),
    index('items_checkout').on(t.checkoutId).where(sql`${t.checkoutId} IS NOT NULL`),
  ],
);
