/** Members' API keys (DESIGN §8, §11.2), owned by the apikeys module. */
import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { objectId } from './columns.ts';
import { users } from './users.ts';

/**
 * A member's API keys, several each with their own scopes, addresses and expiry. Only the SHA-256 of a key
 * is kept (`secret_hash`, what `x-api-key` is looked up by); `sealed` is set only on the key SPEC's
 * `newApiKey` makes (named `Default`), which Get Key shows again (`lib/api-key-crypto.ts`).
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: objectId('id').primaryKey(),
    userId: objectId('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    /** The key's first characters (`sl_` and 8), shown so a member can tell keys apart. */
    prefix: text('prefix').notNull(),
    secretHash: text('secret_hash').notNull(),
    sealed: text('sealed'),
    scopes: text('scopes').array().notNull(),
    /** Addresses and CIDR ranges, normalised (`lib/ip-ranges.ts`); empty: any address. */
    allowedIps: text('allowed_ips').array().notNull().default(sql`'{}'::text[]`),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Moved at most once per 5 minutes per key (plugins/auth.ts). */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('api_keys_secret_hash').on(t.secretHash),
    index('api_keys_user_live').on(t.userId, t.createdAt).where(sql`${t.revokedAt} IS NULL`),
  ],
);
