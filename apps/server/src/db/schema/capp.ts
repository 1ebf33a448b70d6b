/**
 * Creator-app consent (DESIGN §7): a creator's app asks, a member signs in on Starlight and grants it,
 * the app redeems a single-use code. Requests and codes live 10 minutes and are used once; a code is
 * kept only as its SHA-256.
 */
import { sql } from 'drizzle-orm';
import { check, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { objectId } from './columns.ts';
import { itemCollections } from './items.ts';
import { users } from './users.ts';

/** An app's request to read a member's items in one collection; `userId` is who consented, once. */
export const cappAuthRequests = pgTable(
  'capp_auth_requests',
  {
    id: objectId('id').primaryKey(),
    collectionId: objectId('collection_id')
      .notNull()
      .references(() => itemCollections.id),
    redirectUrl: text('redirect_url').notNull(),
    cancelUrl: text('cancel_url').notNull(),
    customMessage: text('custom_message').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    userId: objectId('user_id').references(() => users.id),
  },
  (t) => [check('capp_auth_requests_used', sql`(${t.usedAt} IS NULL) = (${t.userId} IS NULL)`)],
);

/** A single-use code handed to the app's redirect URL, by its SHA-256 (hex). */
export const cappCodes = pgTable(
  'capp_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    requestId: objectId('request_id')
      .notNull()
      .references(() => cappAuthRequests.id),
    userId: objectId('user_id')
      .notNull()
      .references(() => users.id),
    collectionId: objectId('collection_id')
      .notNull()
      .references(() => itemCollections.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('capp_codes_request').on(t.requestId)],
);

/** A member's grant to a collection's app: live while `revokedAt` is null (a reused code revokes it). */
export const cappGrants = pgTable(
  'capp_grants',
  {
    userId: objectId('user_id')
      .notNull()
      .references(() => users.id),
    collectionId: objectId('collection_id')
      .notNull()
      .references(() => itemCollections.id),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.collectionId] })],
);
