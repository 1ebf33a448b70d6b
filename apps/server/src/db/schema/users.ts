/** Members, their sessions' token version, and the logs of who did what (SPEC §3). */
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { objectId } from './columns.ts';

export const users = pgTable(
  'users',
  {
    id: objectId('id').primaryKey(),
    nickname: text('nickname').notNull(),
    email: text('email'),
    passwordHash: text('password_hash'),
    role: text('role').notNull().default('user'),
    primaryWallet: text('primary_wallet'),
    isActive: boolean('is_active').notNull().default(true),
    isWalletOnly: boolean('is_wallet_only').notNull().default(false),
    isEmailVerified: boolean('is_email_verified').notNull().default(false),
    isAnonymous: boolean('is_anonymous').notNull().default(false),
    /** An account Starlight itself runs (the synth chip sale): no sign-in, not on leaderboards. */
    isSystem: boolean('is_system').notNull().default(false),
    referrerId: objectId('referrer_id').references((): AnyPgColumn => users.id),
    fame: integer('fame').notNull().default(0),
    tokenVersion: integer('token_version').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_nickname_lower').on(sql`lower(${t.nickname})`),
    // The admin search's ranking (users/admin-search.queries.ts): the nicknames that start with a term, as a
    // range in byte order whatever the database's collation (a LIKE prefix needs a C-collated btree).
    index('users_nickname_prefix').on(sql`(lower(${t.nickname}) COLLATE "C")`),
    uniqueIndex('users_email').on(t.email),
    uniqueIndex('users_primary_wallet').on(t.primaryWallet),
    // The user list's order (created_at DESC, id DESC). Migration 0017 adds INCLUDE (role and the four
    // flags) by hand (drizzle has no INCLUDE), so a filtered page and a deep OFFSET stay index-only.
    index('users_created_at').on(t.createdAt, t.id),
    // getUsers' selective filters, each with the list's order.
    index('users_inactive_created').on(t.createdAt, t.id).where(sql`NOT ${t.isActive}`),
    index('users_wallet_only_created').on(t.createdAt, t.id).where(sql`${t.isWalletOnly}`),
    index('users_anonymous_created').on(t.createdAt, t.id).where(sql`${t.isAnonymous}`),
    index('users_staff_created').on(t.role, t.createdAt, t.id).where(sql`${t.role} <> 'user'`),
    // Part-of-a-word search (`LIKE '%x%'`) of nickname and e-mail: pg_trgm (created in migration 0017).
    index('users_nickname_trgm').using('gin', sql`lower(${t.nickname}) gin_trgm_ops`).with({ fastupdate: false }),
    index('users_email_trgm').using('gin', sql`${t.email} gin_trgm_ops`).with({ fastupdate: false }),
    // The kept leaderboard follows the members whose flags changed (leaderboard.sync.ts).
    index('users_updated_at').on(t.updatedAt),
  ],
);

/**
 * E-mail tokens (DESIGN §8): `verify` (24 h) proves an address, `reset` (1 h) sets a new password, `signin`
 * (15 min) signs in once when the sign-in limits stopped a right password. Only
 * the SHA-256 of a token is kept; a token is used once (`used_at`).
 */
export const mailTokens = pgTable(
  'mail_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: objectId('user_id')
      .notNull()
      .references(() => users.id),
    purpose: text('purpose', { enum: ['verify', 'reset', 'signin'] }).notNull(),
    /** The address a verify token proves (an account may change its e-mail before clicking). */
    email: text('email').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mail_tokens_user').on(t.userId, t.purpose)],
);

/**
 * Sign-In with Ethereum nonces (DESIGN §8): the messages issued for a wallet, several live at once, each
 * single use (deleted when a valid signature of it is accepted), expiring 10 minutes after issue.
 * `requester` is the client address key (`lib/client-address.ts`, an IPv6 /64) it was issued to, `known`
 * whether that address had signed in to the wallet's account (`users/wallet.service.ts` says what they limit).
 */
export const walletNonces = pgTable(
  'wallet_nonces',
  {
    nonce: text('nonce').primaryKey(),
    walletAddress: text('wallet_address').notNull(),
    message: text('message').notNull(),
    requester: text('requester').notNull().default(''),
    known: boolean('known').notNull().default(false),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('wallet_nonces_wallet').on(t.walletAddress, t.createdAt)],
);

/** One row per sign-in (SPEC §3 access log; login types 1-4). */
export const accessLogs = pgTable(
  'access_logs',
  {
    id: objectId('id').primaryKey(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    userId: objectId('user_id')
      .notNull()
      .references(() => users.id),
    address: text('address').notNull(),
    loginType: integer('login_type').notNull(),
  },
  // The Access Logs list: each filter's index ends in the list's order (created_at, id).
  (t) => [
    index('access_logs_user').on(t.userId, t.createdAt, t.id),
    index('access_logs_created').on(t.createdAt, t.id),
    index('access_logs_login_type').on(t.loginType, t.createdAt, t.id),
    index('access_logs_address').on(sql`(${t.address} COLLATE "C")`, t.createdAt, t.id),
  ],
);

/**
 * Each member's number of access log rows, kept by a statement trigger on `access_logs` (migration
 * 0039): the Access Logs list filtered by one member answers its total from here, exact at any size.
 * The log is append-only, so the count only grows.
 */
export const accessLogCounts = pgTable('access_log_counts', {
  userId: objectId('user_id').primaryKey(),
  n: bigint('n', { mode: 'number' }).notNull(),
});

/** One row per admin action (SPEC §3 admin log categories). */
export const adminLogs = pgTable(
  'admin_logs',
  {
    id: objectId('id').primaryKey(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    adminId: objectId('admin_id')
      .notNull()
      .references(() => users.id),
    affectedUserId: objectId('affected_user_id').references(() => users.id),
    address: text('address').notNull(),
    category: integer('category').notNull(),
    action: text('action').notNull(),
  },
  // The Admin Logs list: each filter's index ends in the list's order (created_at, id).
  (t) => [
    index('admin_logs_created').on(t.createdAt, t.id),
    index('admin_logs_admin').on(t.adminId, t.createdAt, t.id),
    index('admin_logs_affected').on(t.affectedUserId, t.createdAt, t.id),
    index('admin_logs_category').on(t.category, t.createdAt, t.id),
    index('admin_logs_address').on(sql`(${t.address} COLLATE "C")`, t.createdAt, t.id),
  ],
);

/** The global alert level (SPEC §3): a single row with id 1. */
export const alertLevel = pgTable('alert_level', {
  id: integer('id').primaryKey(),
  defconLvl: integer('defcon_lvl').notNull().default(0),
  defconMsg: text('defcon_msg').notNull().default(''),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Idempotency keys of money-moving POSTs (DESIGN §3): the first response, replayed on repeats. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: objectId('user_id')
      .notNull()
      .references(() => users.id),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    response: text('response'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('idempotency_keys_pk').on(t.userId, t.key)],
);

/**
 * Kept user stats (SPEC §3 getUserStats; the reports module's): the accounts created on each UTC day, by flag,
 * kept by triggers on users and balances (migration 0017). A writer adds to the row of its slot
 * (`pg_backend_pid() % 8`), so concurrent writers of one day rarely wait on one row; a read sums the slots.
 */
export const userStatsDaily = pgTable(
  'user_stats_daily',
  {
    day: date('day').notNull(),
    slot: smallint('slot').notNull(),
    total: integer('total').notNull().default(0),
    verified: integer('verified').notNull().default(0),
    wallet: integer('wallet').notNull().default(0),
    anonymous: integer('anonymous').notNull().default(0),
    disabled: integer('disabled').notNull().default(0),
    admin: integer('admin').notNull().default(0),
    haveCurrency: integer('have_currency').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.slot] })],
);

/**
 * The same kept counts per UTC hour of creation (migration 0029), so a range that starts or ends inside a
 * day adds whole hours from here and counts only the part of an hour at each end from `users`. Kept by
 * the same triggers, in the same transaction, with the same slots.
 */
export const userStatsHourly = pgTable(
  'user_stats_hourly',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    slot: smallint('slot').notNull(),
    total: integer('total').notNull().default(0),
    verified: integer('verified').notNull().default(0),
    wallet: integer('wallet').notNull().default(0),
    anonymous: integer('anonymous').notNull().default(0),
    disabled: integer('disabled').notNull().default(0),
    admin: integer('admin').notNull().default(0),
    haveCurrency: integer('have_currency').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.hour, t.slot] })],
);

/**
 * Each member's count of positive balances (kept by a trigger on balances when a balance crosses zero),
 * for getUserStats' haveCurrency. No foreign key: it is derived state, rebuilt by `rebuildUserStats`.
 */
export const userHoldings = pgTable('user_holdings', {
  userId: objectId('user_id').primaryKey(),
  positive: integer('positive').notNull(),
});

/**
 * Sign-in sessions (DESIGN §11.1): one row per sign-in, its id in the token's `sid` claim. A session ends
 * when `ended_at` is set (logout, ended from Settings or by an admin, a password change ends the others);
 * every signed-in request reads its row, so an ended one is refused at once on every server process.
 * `last_seen_at` moves at most every few minutes (auth plugin). Rows of expired sessions are pruned.
 */
export const userSessions = pgTable(
  'user_sessions',
  {
    id: objectId('id').primaryKey(),
    userId: objectId('user_id')
      .notNull()
      .references(() => users.id),
    /** The device as the Settings list names it ("Chrome on Linux"), from the sign-in's User-Agent. */
    device: text('device').notNull(),
    address: text('address').notNull(),
    /** The sign-in passed a second factor (a TOTP code, a recovery code or a passkey). */
    secondFactor: boolean('second_factor').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the token stops working on its own (24 hours after sign-in, SPEC §9). */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    // A member's live sessions, newest first (Settings, the admin's User Control, "end the others").
    index('user_sessions_user').on(t.userId, t.createdAt),
    // Pruning the expired.
    index('user_sessions_expires').on(t.expiresAt),
  ],
);
