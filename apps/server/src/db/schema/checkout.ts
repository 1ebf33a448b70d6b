/** The Credits store: packages, checkout transactions and the provider events behind them (SPEC §3, DESIGN §7). */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { money, objectId } from './columns.ts';
import { users } from './users.ts';

/** A package item grant (SPEC §5: type 1 or 2, amount at least 1). */
export interface PackageItem {
  type: number;
  amount: number;
}

/**
 * A package sells `amount` Credits (currency 3) and `items` for `cost` US dollars. Published once, never
 * unpublished; a deleted package keeps its row (`deletedAt`) for the checkouts that bought it.
 */
export const checkoutPackages = pgTable(
  'checkout_packages',
  {
    id: objectId('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    imgUrl: text('img_url').notNull().default(''),
    /** US dollars, 2 decimals. */
    cost: numeric('cost', { precision: 12, scale: 2 }).notNull(),
    /** Credits granted. */
    amount: money('amount').notNull(),
    items: jsonb('items').$type<PackageItem[]>().notNull().default([]),
    active: boolean('active').notNull().default(true),
    published: boolean('published').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('checkout_packages_created').on(t.createdAt, t.id).where(sql`${t.deletedAt} IS NULL`),
    check('checkout_packages_cost', sql`${t.cost} > 0`),
    check('checkout_packages_amount', sql`${t.amount} > 0`),
  ],
);

/**
 * One purchase of a package by a member through a provider (1 crypto, 2 card). The package's cost and
 * Credits are copied in when it is created, so what a payment is checked against never changes.
 * State (SPEC §4, DESIGN §7): 1 Created, 3 Pending, 5 Delayed, 6 Resolved, 8 Cancelled, 9 Completed.
 * `credited` is what Completed minted (once); `takenBack` what a refund or lost dispute burned again;
 * `owed` what it could not take back because the member had already spent it. The package's items:
 * `chipsGranted` synth chips moved from the sale at completion, `chipsOwed` what the sale
 * could not supply (sold out); ships granted are the items naming the checkout. `itemsTakenBack` is set
 * once a full refund or lost dispute took back the items the member still held.
 */
export const checkoutTransactions = pgTable(
  'checkout_transactions',
  {
    id: objectId('id').primaryKey(),
    userId: objectId('user_id')
      .notNull()
      .references(() => users.id),
    packageId: objectId('package_id')
      .notNull()
      .references(() => checkoutPackages.id),
    packageName: text('package_name').notNull(),
    providerId: integer('provider_id').notNull(),
    /** The provider's id of the payment (Stripe Checkout Session, BTCPay invoice, sandbox reference). */
    refId: text('ref_id').notNull().default(''),
    /** The provider's id of the money movement once paid (Stripe PaymentIntent), which refunds and disputes name. */
    paymentRef: text('payment_ref').notNull().default(''),
    ip: text('ip').notNull().default(''),
    state: integer('state').notNull().default(1),
    cost: numeric('cost', { precision: 12, scale: 2 }).notNull(),
    amount: money('amount').notNull(),
    credited: money('credited').notNull().default('0'),
    takenBack: money('taken_back').notNull().default('0'),
    owed: money('owed').notNull().default('0'),
    chipsGranted: integer('chips_granted').notNull().default(0),
    chipsOwed: integer('chips_owed').notNull().default(0),
    itemsTakenBack: boolean('items_taken_back').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Each in the list's whole order (created_at, then id: migration 0028), so a page needs no sort.
    index('checkout_transactions_user').on(t.userId, t.createdAt, t.id),
    index('checkout_transactions_created').on(t.createdAt, t.id),
    // The Checkout Logs filters, in the list's order.
    index('checkout_transactions_state').on(t.state, t.createdAt, t.id),
    index('checkout_transactions_package').on(t.packageId, t.createdAt, t.id),
    uniqueIndex('checkout_transactions_ref').on(t.providerId, t.refId).where(sql`${t.refId} <> ''`),
    index('checkout_transactions_payment_ref').on(t.providerId, t.paymentRef).where(sql`${t.paymentRef} <> ''`),
    check('checkout_transactions_state', sql`${t.state} IN (1, 3, 5, 6, 8, 9)`),
    check('checkout_transactions_provider', sql`${t.providerId} IN (1, 2)`),
  ],
);

/**
 * Every provider event received (DESIGN §7 `eventHistory`), once per provider event id: a redelivery
 * finds its id taken and changes nothing. `outcome` says what it did (e.g. `completed`, `ignored`,
 * `mismatch`); `checkoutId` is null when the event names no known checkout.
 */
export const checkoutEvents = pgTable(
  'checkout_events',
  {
    id: objectId('id').primaryKey(),
    checkoutId: objectId('checkout_id').references(() => checkoutTransactions.id),
    providerId: integer('provider_id').notNull(),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    outcome: text('outcome').notNull(),
    payload: jsonb('payload').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('checkout_events_provider_event').on(t.providerId, t.eventId),
    index('checkout_events_checkout').on(t.checkoutId, t.receivedAt),
  ],
);
