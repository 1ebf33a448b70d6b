/** The exchange, the Quantum Hub: pairs, orders and trades (SPEC §3, DESIGN §5). */
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { currencies } from './bank.ts';
import { money, objectId } from './columns.ts';
import { users } from './users.ts';

/**
 * A pair trades `buyCurrency` (the asset) against `sellCurrency` (what it is paid in). Its name is
 * composed from the currencies when read. A deleted pair keeps its row (`deletedAt`) so members'
 * order history still points at it.
 */
export const exchangePairs = pgTable(
  'exchange_pairs',
  {
    id: objectId('id').primaryKey(),
    buyCurrency: integer('buy_currency')
      .notNull()
      .references(() => currencies.currencyId),
    sellCurrency: integer('sell_currency')
      .notNull()
      .references(() => currencies.currencyId),
    canBuy: boolean('can_buy').notNull().default(true),
    canSell: boolean('can_sell').notNull().default(true),
    visible: boolean('visible').notNull().default(true),
    frozen: boolean('frozen').notNull().default(false),
    frozenNote: text('frozen_note').notNull().default(''),
    /** The larger of `makerFee` and `takerFee`: SPEC §3's one `fee`, kept for readers of the wire. */
    fee: money('fee').notNull().default('0'),
    /** Fraction 0..1 of the proceeds charged to the side whose order rested on the book (DESIGN §11.4). */
    makerFee: money('maker_fee').notNull().default('0'),
    /** Fraction 0..1 of the proceeds charged to the side whose incoming order matched (DESIGN §11.4). */
    takerFee: money('taker_fee').notNull().default('0'),
    /** The user receiving fees (category 23); null burns them. */
    feeCollectorId: objectId('fee_collector_id').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('exchange_pairs_currencies').on(t.buyCurrency, t.sellCurrency).where(sql`${t.deletedAt} IS NULL`),
    check('exchange_pairs_fee_fraction', sql`${t.fee} >= 0 AND ${t.fee} <= 1`),
    check('exchange_pairs_maker_fee_fraction', sql`${t.makerFee} >= 0 AND ${t.makerFee} <= 1`),
    check('exchange_pairs_taker_fee_fraction', sql`${t.takerFee} >= 0 AND ${t.takerFee} <= 1`),
    check('exchange_pairs_distinct_currencies', sql`${t.buyCurrency} <> ${t.sellCurrency}`),
  ],
);

/**
 * An order. `seq` gives time priority (assigned under the pair's lock, so it is the matching order).
 * `escrowRemaining` is what escrow still holds for it: sellCurrency for a buy, buyCurrency for a sell;
 * a cancel or payout releases exactly that.
 */
export const exchangeOrders = pgTable(
  'exchange_orders',
  {
    id: objectId('id').primaryKey(),
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    // No foreign keys on orders and trades (migration 0036): see there for what keeps their names real.
    pairId: objectId('pair_id').notNull(),
    userId: objectId('user_id').notNull(),
    buySide: boolean('buy_side').notNull(),
    initialAmount: money('initial_amount').notNull(),
    filledAmount: money('filled_amount').notNull().default('0'),
    price: money('price').notNull(),
    state: integer('state').notNull().default(1),
    escrowRemaining: money('escrow_remaining').notNull(),
    // DESIGN §11.4: the order's type and time in force; a market order's `price` is its average fill.
    type: text('type').notNull().default('limit'),
    timeInForce: text('time_in_force').notNull().default('GTC'),
    postOnly: boolean('post_only').notNull().default(false),
    stopPrice: money('stop_price'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    // Cancelled by the expiry job at `expiresAt`, not by its member or an admin (My orders' Expired).
    expired: boolean('expired').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The open book, one index a side in its price-time priority: buys highest price first,
    // sells lowest first, both oldest first at a price, so the book, its depth and the matching engine's
    // crossing orders are read in index order (one index with `price` ascending made every read of the
    // buys sort all of a busy pair's open orders).
    index('exchange_orders_book_buys')
      .on(t.pairId, t.price.desc().nullsFirst(), t.seq)
      .where(sql`${t.state} = 1 AND ${t.buySide}`),
    index('exchange_orders_book_sells').on(t.pairId, t.price, t.seq).where(sql`${t.state} = 1 AND NOT ${t.buySide}`),
    index('exchange_orders_user').on(t.userId, t.seq),
    // Open and Untriggered orders that expire, soonest first: the expiry job reads them here (DESIGN §11.4),
    // never a scan.
    index('exchange_orders_expiring').on(t.expiresAt).where(sql`${t.state} IN (1, 5) AND ${t.expiresAt} IS NOT NULL`),
    // Untriggered stop-limit orders by pair, side and stop price: a trade finds the stops it triggers here.
    index('exchange_orders_stops').on(t.pairId, t.buySide, t.stopPrice, t.seq).where(sql`${t.state} = 5`),
    // A member's orders of one state (and pair), newest first: the pages of My orders and the dashboard's open orders.
    index('exchange_orders_user_state').on(t.userId, t.state, t.seq),
    index('exchange_orders_user_pair_state').on(t.userId, t.pairId, t.state, t.seq),
    check('exchange_orders_amounts', sql`${t.initialAmount} > 0 AND ${t.price} > 0`),
    check('exchange_orders_filled', sql`${t.filledAmount} >= 0 AND ${t.filledAmount} <= ${t.initialAmount}`),
    check('exchange_orders_escrow', sql`${t.escrowRemaining} >= 0`),
    check('exchange_orders_type', sql`${t.type} IN ('limit', 'market', 'stop_limit')`),
    check('exchange_orders_time_in_force', sql`${t.timeInForce} IN ('GTC', 'IOC', 'FOK')`),
  ],
);

/** One execution between a buy and a sell order, at the resting order's price. */
export const exchangeTrades = pgTable(
  'exchange_trades',
  {
    id: objectId('id').primaryKey(),
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    pairId: objectId('pair_id').notNull(),
    buyOrderId: objectId('buy_order_id').notNull(),
    sellOrderId: objectId('sell_order_id').notNull(),
    /** The taker's side: true when an incoming buy met a resting sell. */
    takerBuySide: boolean('taker_buy_side').notNull(),
    price: money('price').notNull(),
    /** Quantity in buyCurrency. */
    amount: money('amount').notNull(),
    /** What the buyer paid the seller, in sellCurrency. */
    cost: money('cost').notNull(),
    buyerFee: money('buyer_fee').notNull(),
    sellerFee: money('seller_fee').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('exchange_trades_pair').on(t.pairId, t.seq),
    index('exchange_trades_pair_time').on(t.pairId, t.createdAt),
  ],
);
