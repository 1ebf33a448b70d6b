/**
 * SQL of the bank's currencies (SPEC §3, DESIGN §3).
 * Reads other modules' tables: `balances` (the ledger's), `exchange_pairs`, `exchange_orders`, `forge_recipes`, `forge_processes` and `settlements`: a lowered precision must find every amount held anywhere that it cannot write (`findFinerHolding`), in one statement.
 */
import { asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { currencies } from '../../db/schema/index.ts';

export type CurrencyRow = typeof currencies.$inferSelect;
/** The columns a currency is created or changed with. */
export type CurrencyColumns = Partial<typeof currencies.$inferInsert>;

/** Every currency, by id. */
export function findCurrencies(db: DbOrTx): Promise<CurrencyRow[]> {
  return db.select().from(currencies).orderBy(asc(currencies.currencyId));
}

/** One currency or null. */
export async function findCurrency(db: DbOrTx, currencyId: number): Promise<CurrencyRow | null> {
  const [row] = await db.select().from(currencies).where(eq(currencies.currencyId, currencyId)).limit(1);
  return row ?? null;
}

/** The next free currency id (the server assigns it, DESIGN §3). */
export async function nextCurrencyId(db: DbOrTx): Promise<number> {
  const res = await db.execute<{ next: number }>(sql`SELECT coalesce(max(currency_id), 0) + 1 AS next FROM currencies`);
  return Number(res.rows[0]?.next ?? 1);
}

/**
 * Takes the lock that serialises currency creation (in the caller's transaction): two concurrent
 * creations would otherwise both take max(id) + 1, or one ticker.
 */
export async function lockCurrencyCreation(tx: Tx): Promise<void> {
  await tx.execute(sql`LOCK TABLE currencies IN SHARE ROW EXCLUSIVE MODE`);
}

/** Inserts a currency and returns its row. */
export async function insertCurrency(
  db: DbOrTx,
  values: CurrencyColumns & { currencyId: number; ticker: string; name: string; precision: number },
): Promise<CurrencyRow> {
  const [row] = await db.insert(currencies).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** Changes the given columns of a currency; returns its new row, or null when it does not exist. */
export async function updateCurrency(
  db: DbOrTx,
  currencyId: number,
  changes: CurrencyColumns,
): Promise<CurrencyRow | null> {
  const [row] = await db.update(currencies).set(changes).where(eq(currencies.currencyId, currencyId)).returning();
  return row ?? null;
}

/**
 * The currency `currencyId`, its row locked until the caller's transaction ends (`FOR UPDATE`); null
 * when it does not exist. Two changes of one currency run one after the other. Every ledger row's
 * foreign key takes `FOR KEY SHARE` on its currency, which `FOR UPDATE` conflicts with: the change waits
 * for a posting of this currency that has already written (so a check after the lock sees it
 * committed), and a posting that writes later waits for the change to commit. What is left: a posting
 * that read the old precision before the lock and writes after the change still writes an amount at the
 * old precision (postings read the currency without a lock; reading it `FOR KEY SHARE` where they read
 * its precision would close that).
 */
export async function lockCurrency(tx: Tx, currencyId: number): Promise<CurrencyRow | null> {
  const [row] = await tx.select().from(currencies).where(eq(currencies.currencyId, currencyId)).for('update');
  return row ?? null;
}

/** Where an amount of a currency is held: a balance, an open order, a pending settlement, the forge. */
export type HoldingKind = 'balance' | 'order' | 'settlement' | 'recipe' | 'process';

/**
 * The finest amount of currency `currencyId` held anywhere that `precision` decimals cannot write
 * (`amount <> trunc(amount, precision)`), and where it is held; null when every amount fits. Looks at
 * balances, open orders (amount and filled amount in the pair's buy currency, price in its sell
 * currency, escrow in the currency it holds), pending deposits and withdrawals (amount and tax), live
 * recipes and running forge processes (amounts per unit: a total is a whole multiple).
 *
 * Cost: every balance of the one currency, through `balances_currency` (up to all its holders: a long read at
 * a million), open orders of its pairs through `exchange_orders_book`, pending settlements
 * through `settlements_state_created`, running processes through `forge_processes_running`. Only an
 * admin lowering a precision runs it, rarely, so the scan is accepted rather than an index on `amount`
 * that every posting would have to update.
 */
export async function findFinerHolding(
  db: DbOrTx,
  currencyId: number,
  precision: number,
): Promise<{ kind: HoldingKind; amount: string } | null> {
  const c = sql`${currencyId}::int`;
  const res = await db.execute<{ kind: HoldingKind; amount: string }>(sql`
    WITH held(kind, amount) AS (
      SELECT 'balance', b.amount FROM balances b WHERE b.currency_id = ${c}
      UNION ALL
      SELECT 'order', a.amount
        FROM exchange_pairs x
        JOIN exchange_orders o ON o.pair_id = x.id AND o.state IN (1, 5)
        CROSS JOIN LATERAL (VALUES
          (CASE WHEN x.buy_currency = ${c} THEN o.initial_amount END),
          (CASE WHEN x.buy_currency = ${c} THEN o.filled_amount END),
          (CASE WHEN x.sell_currency = ${c} THEN o.price END),
          (CASE WHEN (CASE WHEN o.buy_side THEN x.sell_currency ELSE x.buy_currency END) = ${c}
                THEN o.escrow_remaining END)) a(amount)
       WHERE (x.buy_currency = ${c} OR x.sell_currency = ${c}) AND a.amount IS NOT NULL
      UNION ALL
      SELECT 'settlement', a.amount
        FROM settlements s CROSS JOIN LATERAL (VALUES (s.amount), (s.tax)) a(amount)
       WHERE s.state = 'pending' AND s.currency_id = ${c}
      UNION ALL
      SELECT 'recipe', a.amount
        FROM forge_recipes r
        CROSS JOIN LATERAL (VALUES
          (CASE WHEN r.input_currency_id = ${c} THEN r.input_amount END),
          (CASE WHEN r.output_currency_id = ${c} THEN r.output_amount END)) a(amount)
       WHERE r.deleted_at IS NULL AND (r.input_currency_id = ${c} OR r.output_currency_id = ${c}) AND a.amount IS NOT NULL
      UNION ALL
      SELECT 'process', a.amount
        FROM forge_processes p
        CROSS JOIN LATERAL (VALUES
          (CASE WHEN p.input_currency_id = ${c} THEN p.input_amount END),
          (CASE WHEN p.output_currency_id = ${c} THEN p.output_amount END)) a(amount)
       WHERE p.state = 1 AND (p.input_currency_id = ${c} OR p.output_currency_id = ${c}) AND a.amount IS NOT NULL
    )
    SELECT kind, amount::text AS amount FROM held
     WHERE amount <> trunc(amount, ${precision}::int)
     ORDER BY min_scale(amount) DESC, kind
     LIMIT 1`);
  return res.rows[0] ?? null;
}
