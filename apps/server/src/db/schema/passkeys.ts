/** Passkeys (DESIGN §11.1): members' WebAuthn credentials and the challenges issued for them. */
import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { objectId } from './columns.ts';
import { users } from './users.ts';

/**
 * A member's passkey: the credential id (base64url, unique across accounts), its COSE public key
 * (base64url), the signature counter the authenticator last reported, and its transports.
 */
export const userPasskeys = pgTable(
  'user_passkeys',
  {
    id: objectId('id').primaryKey(),
    userId: objectId('user_id')
      .notNull()
      .references(() => users.id),
    credentialId: text('credential_id').notNull(),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports').array().notNull().default(sql`'{}'::text[]`),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('user_passkeys_credential').on(t.credentialId),
    index('user_passkeys_user').on(t.userId, t.createdAt),
  ],
);

/**
 * A WebAuthn challenge (base64url) issued for a registration (to `userId`) or a sign-in (to anyone).
 * Used once (`used_at`), lives 5 minutes, pruned with each issue (`insertChallenge`).
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    id: objectId('id').primaryKey(),
    challenge: text('challenge').notNull(),
    purpose: text('purpose', { enum: ['registration', 'authentication'] }).notNull(),
    userId: objectId('user_id').references(() => users.id),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('webauthn_challenges_expires').on(t.expiresAt)],
);
