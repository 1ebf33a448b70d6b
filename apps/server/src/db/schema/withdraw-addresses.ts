/** Members' withdrawal addresses and their "allowed addresses only" switch (DESIGN §11.2), owned by the settlements module. */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { currencies } from './bank.ts';
import { objectId } from './columns.ts';
import { users } from './users.ts';

/**
 * A member's saved withdrawal addresses, lowercased as the wire's `walletAddress` makes them. Confirmed by
 * a mailed link: `confirm_token_hash` is its SHA-256 until then (`token_expires_at`); `active_from` is null
 * until the link is followed, then the time withdrawals may go to it (`WITHDRAW_ADDRESS_HOLD_HOURS` later).
 */
export const withdrawAddresses = pgTable(
  'withdraw_addresses',
  {
    id: objectId('id').primaryKey(),
    userId: objectId('user_id')
      .notNull()
      .references(() => users.id),
    currencyId: integer('currency_id')
      .notNull()
      .references(() => currencies.currencyId),
    walletAddress: text('wallet_address').notNull(),
    label: text('label').notNull(),
    confirmTokenHash: text('confirm_token_hash'),
    tokenExpiresAt: timestamp('token_expires_at', { withTimezone: true }),
    activeFrom: timestamp('active_from', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('withdraw_addresses_user_created').on(t.userId, t.createdAt.desc()),
    uniqueIndex('withdraw_addresses_user_address').on(t.userId, t.currencyId, t.walletAddress),
    uniqueIndex('withdraw_addresses_token').on(t.confirmTokenHash),
  ],
);

/**
 * A member's "allowed addresses only" switch: on at once; turned off, it stays on until `off_from`. No row
 * is the switch off.
 */
export const withdrawAllowLists = pgTable('withdraw_allow_lists', {
  userId: objectId('user_id')
    .primaryKey()
    .references(() => users.id),
  allowListOnly: boolean('allow_list_only').notNull().default(sql`false`),
  offFrom: timestamp('off_from', { withTimezone: true }),
});
