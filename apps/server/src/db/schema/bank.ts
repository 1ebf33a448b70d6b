/** The bank: currencies, balances and the append-only ledger (SPEC §3, DESIGN §4). */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { money, objectId } from './columns.ts';
import { users } from './users.ts';

export const currencies = pgTable(
  'currencies',
  {
    currencyId: integer('currency_id').primaryKey(),
    ticker: text('ticker').notNull(),
    name: text('name').notNull(),
    precision: integer('precision').notNull(),
    canDeposit: boolean('can_deposit').notNull().default(false),
    canWithdraw: boolean('can_withdraw').notNull().default(false),
    canTransfer: boolean('can_transfer').notNull().default(false),
    canMint: boolean('can_mint').notNull().default(false),
    canBurn: boolean('can_burn').notNull().default(false),
    isFrozen: boolean('is_frozen').notNull().default(false),
    frozenNote: text('frozen_note').notNull().default(''),
    depositTax: money('deposit_tax').notNull().default('0'),
    withdrawTax: money('withdraw_tax').notNull().default('0'),
    transferTax: money('transfer_tax').notNull().default('0'),
    taxCollector: text('tax_collector').notNull().default(''),
    imgUrl: text('img_url').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('currencies_ticker_upper').on(sql`upper(${t.ticker})`)],
);

/** A member's holding of one currency. The CHECK makes a negative balance impossible. */
export const balances = pgTable(
  'balances',
  {
    userId: objectId('user_id')
      .notNull()
      .references(() => users.id),
    currencyId: integer('currency_id')
      .notNull()
      .references(() => currencies.currencyId),
    amount: money('amount').notNull().default('0'),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.currencyId] }),
    check('balances_amount_nonnegative', sql`${t.amount} >= 0`),
    // Without `amount`: a balance update then changes no indexed column, so it is a HOT update (DESIGN §9).
    index('balances_currency').on(t.currencyId),
  ],
);

/**
 * The ledger: append-only (a trigger refuses UPDATE, DELETE and TRUNCATE, migration
 * 0005_ledger_append_only). `senderId` null = issued by the system (or released from escrow when
 * `escrow`); `recipientId` null = removed from circulation (or put into escrow when `escrow`).
 */
export const bankTransactions = pgTable(
  'bank_transactions',
  {
    id: objectId('id').primaryKey(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    category: integer('category').notNull(),
    // No foreign keys on the ledger (migration 0034): see there for what keeps its parties and currency real.
    currencyId: integer('currency_id').notNull(),
    amount: money('amount').notNull(),
    executorId: objectId('executor_id'),
    senderId: objectId('sender_id'),
    recipientId: objectId('recipient_id'),
    escrow: boolean('escrow').notNull().default(false),
    note: text('note').notNull().default(''),
    reference: text('reference'),
  },
  (t) => [
    check('bank_transactions_amount_positive', sql`${t.amount} > 0`),
    // The lists' whole order (created_at, then id) is in each key (migration 0028), so a page needs no
    // sort whatever plan PostgreSQL keeps for its statement; migration 0028 also adds INCLUDE by hand
    // (drizzle has none) to the two parties': the ledger's lists read their pages, counts and member
    // filters index-only.
    // The four party indexes hold only the rows that name that party (migration 0040): a list reads them
    // by a party's id, never for a null one, and a row issued by the system (sender null) or removed from
    // circulation (recipient null, escrow included: half of an exchange's rows) writes two entries fewer.
    index('bank_tx_sender').on(t.senderId, t.createdAt, t.id).where(sql`${t.senderId} IS NOT NULL`),
    index('bank_tx_recipient').on(t.recipientId, t.createdAt, t.id).where(sql`${t.recipientId} IS NOT NULL`),
    index('bank_tx_created').on(t.createdAt, t.id),
    // The Tnx Logs' currency or category filter without a party (reports/transactions-list.queries.ts) reads a
    // page per category of the currency, or per currency of the category, from this index and counts its
    // matches up to a bound through it (migrations 0037, 0038): a rare currency's rows are counted from
    // their own range, where without it the count scanned the whole ledger and the page walked
    // `bank_tx_created` back. It also stands for the (category, created_at, id) index that each ledger row
    // paid for. Migration 0041 adds INCLUDE (amount) by hand, so an amount bound with a category or a
    // currency is compared in the index, not on each row of the ranges.
    index('bank_tx_currency_category_created').on(t.currencyId, t.category, t.createdAt, t.id),
    // An amount bound on a currency or a category without a party (reports/amount-bound.queries.ts): each
    // (currency, category) range's matches counted and, when few, read from here alone and sorted, where
    // the range above compared every row's amount to find a rare one. Migration 0043 adds INCLUDE
    // (created_at, id) by hand, so a page and its count are read index-only.
    index('bank_tx_currency_category_amount').on(t.currencyId, t.category, t.amount),
    // The Tnx Logs filters (reports/transactions-list.queries.ts): the rows a nickname executed
    // without being their sender or recipient (admin mints and burns, settlements, exchange fills), partial
    // so a transfer (its executor is its sender) writes no entry; migration 0028 adds INCLUDE by hand, so
    // the nickname filter with a currency, category or amount stays index-only.
    // A member's history (and a nickname's list) by category: each party's rows of one category in date
    // order, so a rare category (a member's few deposits among many rows) or one with a currency and an
    // amount reads its own rows, not all the party's (migration 0032 adds INCLUDE by hand).
    index('bank_tx_sender_category')
      .on(t.senderId, t.category, t.createdAt, t.id)
      .where(sql`${t.senderId} IS NOT NULL`),
    index('bank_tx_recipient_category')
      .on(t.recipientId, t.category, t.createdAt, t.id)
      .where(sql`${t.recipientId} IS NOT NULL`),
    index('bank_tx_executor_other')
      .on(t.executorId, t.createdAt, t.id)
      .where(
        sql`${t.executorId} IS NOT NULL AND ${t.executorId} IS DISTINCT FROM ${t.senderId} AND ${t.executorId} IS DISTINCT FROM ${t.recipientId}`,
      ),
  ],
);

/**
 * Deposits and withdrawals waiting for an admin (DESIGN §8). A withdrawal has already debited the member
 * (`amount` as category 2, `tax` as category 4) when it is opened; a deposit credits nothing until it is
 * approved. `state` moves once, from pending to approved or refused (see settlements.service.ts).
 */
export const settlements = pgTable(
  'settlements',
  {
    id: objectId('id').primaryKey(),
    kind: text('kind', { enum: ['deposit', 'withdrawal'] }).notNull(),
    userId: objectId('user_id')
      .notNull()
      .references(() => users.id),
    currencyId: integer('currency_id')
      .notNull()
      .references(() => currencies.currencyId),
    amount: money('amount').notNull(),
    /** The withdrawal tax charged when it was opened (0 for deposits). */
    tax: money('tax').notNull().default('0'),
    walletAddress: text('wallet_address').notNull(),
    reference: text('reference').notNull().default(''),
    state: text('state', { enum: ['pending', 'approved', 'refused'] })
      .notNull()
      .default('pending'),
    /** The admin's note when settling. */
    note: text('note').notNull().default(''),
    settledBy: objectId('settled_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    index('settlements_state_created').on(t.state, t.createdAt, t.id),
    index('settlements_user').on(t.userId, t.createdAt, t.id),
    // The admin list's order (pending first, then newest), read from one index (migration
    // 0024 adds INCLUDE (state, kind) by hand, so a deep page reads its ids index-only).
    index('settlements_listing').on(sql`(${t.state} <> 'pending')`, t.createdAt.desc(), t.id.desc()),
    check('settlements_amount_positive', sql`${t.amount} > 0`),
    // One live claim per deposit: a reference (compared trimmed and without case, as a transaction hash
    // in hex reads the same in either case) may be pending or approved once per currency; a refused
    // claim frees it. The deposit service answers the violation with 409.
    uniqueIndex('settlements_deposit_reference')
      .on(t.currencyId, sql`lower(btrim(${t.reference}))`)
      .where(sql`${t.kind} = 'deposit' AND ${t.state} IN ('pending', 'approved')`),
  ],
);
