/**
 * SQL of the synth chip sale (DESIGN §7): the seeded sale account, chip currency and ship collection.
 * Reads other modules' tables: `users`, `currencies` and `item_collections` (the sale's seeded account, chip currency and ship collection, found by name) and `balances` (the chips the sale holds), each in the one statement that needs it.
 */
import { ALPHA_SHIPS, CHIP_TICKER } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryNamed, type Tx } from '../../db/client.ts';
import { SALE_NICKNAME } from '../accounts/accounts.public.ts';
import { type BatchBalances, lockBalances, type PostAlong } from '../ledger/ledger.public.ts';

/** What the sale is made of: its account, the chips' currency and the ships' collection. */
export interface Sale {
  saleId: string;
  chipCurrencyId: number;
  shipsCollectionId: string;
}

/**
 * The sale as a query (`sale_id`, `currency_id`, `collection_id`; no row before the seed has made it),
 * for a statement that reads it beside other work (`findSale`, and the lock of a batch of openings).
 */
const SALE_QUERY = sql`
    SELECT u.id AS sale_id, c.currency_id, ic.id AS collection_id
    FROM users u
    JOIN currencies c ON upper(c.ticker) = ${CHIP_TICKER}
    JOIN item_collections ic ON ic.creator_id = u.id AND ic.name = ${ALPHA_SHIPS}
    WHERE lower(u.nickname) = ${SALE_NICKNAME} AND u.is_system`;

/**
 * The seeded sale, or null before the seed has made it. A named statement, planned once per connection
 * (its three-table join was planned again on every synth chips page).
 */
export async function findSale(db: DbOrTx): Promise<Sale | null> {
  const [r] = await queryNamed<{ sale_id: string; currency_id: number; collection_id: string }>(
    db,
    'chips_sale',
    SALE_QUERY,
  );
  return r ? { saleId: r.sale_id, chipCurrencyId: Number(r.currency_id), shipsCollectionId: r.collection_id } : null;
}

/** How many chips the sale still holds (0 without a balance row). */
export async function chipsRemaining(db: DbOrTx, sale: Sale): Promise<number> {
  const [r] = await queryNamed<{ amount: string }>(
    db,
    'chips_remaining',
    sql`SELECT amount::text AS amount FROM balances WHERE user_id = ${sale.saleId} AND currency_id = ${sale.chipCurrencyId}`,
  );
  return Math.floor(Number(r?.amount ?? 0));
}

/**
 * Reads the sale and locks, in one statement and the global order (the ledger's `lockBalances`), the
 * chip rows of the members `memberIds` who open chips. Answers the sale, the balances and the database's
 * time, or null when the sale is not open (not seeded yet).
 */
export async function lockForOpening(
  tx: Tx,
  memberIds: readonly string[],
): Promise<{ sale: Sale; balances: BatchBalances; now: Date } | null> {
  const locked = await lockBalances<{
    sale_id: string;
    currency_id: number;
    collection_id: string;
    now: string | Date;
  }>(tx, 'chips_open_lock', {
    ctes: sql`sale AS MATERIALIZED (${SALE_QUERY})`,
    userIds: memberIds,
    moreCurrencyIds: [sql`SELECT currency_id FROM sale`],
    columns: sql`sale.sale_id, sale.currency_id, sale.collection_id, now() AS now`,
    from: sql`FROM sale`,
  });
  if (!locked) return null;
  const { row, balances } = locked;
  return {
    sale: { saleId: row.sale_id, chipCurrencyId: Number(row.currency_id), shipsCollectionId: row.collection_id },
    balances,
    now: new Date(row.now),
  };
}

/**
 * `along` (the items an opening inserts) with `notified` (their openers' notifications,
 * `insertNotificationsAlong`), both written by the ledger posting's one statement, named `name`.
 */
export function withNotifications(name: string, along: PostAlong, notified: { ctes: SQL; columns: SQL }): PostAlong {
  return {
    name,
    ctes: along.ctes ? sql`${along.ctes}, ${notified.ctes}` : notified.ctes,
    columns: sql`${along.columns}, ${notified.columns}`,
  };
}
