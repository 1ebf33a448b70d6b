/**
 * Second factors (DESIGN §11.1), owned by the mfa module: a member's authenticator-app secret, their
 * recovery codes, and the single-use challenges a sign-in waits on between the password and the code.
 */
import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { objectId } from './columns.ts';
import { users } from './users.ts';

/**
 * A member's TOTP secret (RFC 6238), sealed at rest with the API keys' AES-256-GCM sealing
 * (`lib/api-key-crypto.ts`). Pending until the first code confirms it (`enabled_at`); `last_step` is the
 * last accepted time step, so one code is accepted once.
 */
export const userTotp = pgTable('user_totp', {
  userId: objectId('user_id')
    .primaryKey()
    .references(() => users.id),
  secretSealed: text('secret_sealed').notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Recovery codes (DESIGN §11.1): SHA-256 of each, single use (`used_at`); a new set replaces the old. */
export const userRecoveryCodes = pgTable(
  'user_recovery_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    userId: objectId('user_id')
      .notNull()
      .references(() => users.id),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('user_recovery_codes_user').on(t.userId)],
);

/**
 * Sign-in challenges (DESIGN §11.1): a password or wallet signature proved, the second factor awaited.
 * SHA-256 of the token, single use, 5 minutes, dead after 5 wrong codes. `login_type` is the access log
 * type the sign-in will write; `capp_auth_request` the creator app's request it will grant, if any.
 */
export const mfaTokens = pgTable(
  'mfa_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: objectId('user_id')
      .notNull()
      .references(() => users.id),
    cAppAuthRequest: objectId('capp_auth_request'),
    loginType: smallint('login_type').notNull(),
    failures: integer('failures').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  // Pruning the expired.
  (t) => [index('mfa_tokens_expires').on(t.expiresAt)],
);

/**
 * Security holds (DESIGN §11.2): withdrawals pause until `until` after a password reset, an e-mail change
 * or two-factor turned off. One row a member; a new hold only moves `until` later.
 */
export const securityHolds = pgTable('security_holds', {
  userId: objectId('user_id')
    .primaryKey()
    .references(() => users.id),
  until: timestamp('until', { withTimezone: true }).notNull(),
  reason: text('reason').notNull(),
});
