/**
 * The kept leaderboard: the ranking of every currency's holders, kept by a background job
 * that follows the ledger (modules/leaderboard/leaderboard.sync.ts). Derived data: `rebuildLeaderboard` makes
 * it again from `balances` at any time.
 */
import { sql } from 'drizzle-orm';
import { index, integer, numeric, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { money, objectId } from './columns.ts';

/**
 * Where each store of the ranking stands: `mark`, the committed horizon up to which the ledger and the
 * members' changes are in it. One row per store kind (`table`; the Redis store keeps its own mark in
 * Redis, written with its data). No row: the ranking is built from scratch.
 */
export const leaderboardState = pgTable('leaderboard_state', {
  store: text('store').primaryKey(),
  mark: timestamp('mark', { withTimezone: true }).notNull(),
  builtAt: timestamp('built_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The ranking when there is no Redis (PGlite, or PostgreSQL without `REDIS_URL`): one row per ranked
 * holder (an active, non-system member with a positive balance), read through `leaderboard_entries_rank`
 * in rank order (amount highest first, ties by member id). No foreign keys: derived rows.
 */
export const leaderboardEntries = pgTable(
  'leaderboard_entries',
  {
    currencyId: integer('currency_id').notNull(),
    userId: objectId('user_id').notNull(),
    amount: money('amount').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.currencyId, t.userId] }),
    index('leaderboard_entries_rank').on(t.currencyId, sql`${t.amount} DESC`, t.userId),
  ],
);

/**
 * Counts over the table store's ranking, so a viewer's rank is found without counting everyone ahead
 * (an order-statistic index in rows): each currency's entries, in rank order, are cut into blocks of
 * consecutive entries; a block starts at the entry (`startNeg` = -amount, `startUser`) and holds `n`
 * entries up to the next block's start. The first block of a currency starts at the sentinel
 * (-10^30, ''), before every entry. Rank = the `n` of the blocks before the viewer's + a count inside
 * theirs (at most about two blocks' size: a block that grows past it is split).
 */
export const leaderboardBlocks = pgTable(
  'leaderboard_blocks',
  {
    currencyId: integer('currency_id').notNull(),
    startNeg: numeric('start_neg').notNull(),
    startUser: text('start_user').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.currencyId, t.startNeg, t.startUser] })],
);
