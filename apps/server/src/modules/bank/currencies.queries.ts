/** SQL of the bank's currencies (SPEC §3, DESIGN §3). */
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
