/**
 * SQL of the ledger lists' amount bound without a party (SPEC §2 Tnx Logs: a category or a currency with
 * "amount above/below"). Each branch of such a list is one (currency, category) range; its matches are
 * found through `bank_tx_currency_category_amount` and a branch with few of them reads them all and sorts
 * them, where walking the range in date order would compare every row of it to find a rare amount (a
 * category's transfers of 100 or more). PostgreSQL cannot tell the two apart: its estimate of an amount
 * bound is the whole ledger's, not the range's.
 * Reads other modules' tables: `bank_transactions` (the ledger's: these are its lists).
 */
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryPlanned } from '../../db/client.ts';

/** Up to how many matches a branch reads whole and sorts, rather than walking its range in date order. */
export const FEW_MATCHES = 5_000;

/**
 * The matches of each of `conds` (the full condition of one branch: its currency, its category, the
 * amount bound and any dates), each counted up to `FEW_MATCHES + 1` from the amount index (at most that
 * many index entries a branch, however long its range). In the order of `conds`.
 */
async function matchesUpToFew(db: DbOrTx, conds: SQL[]): Promise<number[]> {
  const bound = sql.raw(String(FEW_MATCHES + 1));
  const columns = conds.map(
    (c, i) =>
      sql`(SELECT count(*)::int FROM (SELECT 1 FROM bank_transactions t WHERE ${c} LIMIT ${bound}) m) AS ${sql.raw(`b${i}`)}`,
  );
  const [row] = await queryPlanned<Record<string, number>>(db, sql`SELECT ${sql.join(columns, sql`, `)}`);
  return conds.map((_, i) => Number(row?.[`b${i}`] ?? 0));
}

/**
 * One branch's ids and times up to `reach`, newest first, given its match count (`matchesUpToFew`): none
 * for no match; for at most `FEW_MATCHES`, every match read from the amount index and the newest `reach`
 * sorted out (OFFSET 0 keeps PostgreSQL from walking the date order instead); else the range in date order,
 * its amounts compared in `bank_tx_currency_category_created` (they are common enough to stop early).
 */
function amountBranchIds(cond: SQL, matches: number, reach: SQL | number): SQL | null {
  if (matches === 0) return null;
  return matches <= FEW_MATCHES
    ? sql`(SELECT id, created_at FROM (SELECT t.id, t.created_at FROM bank_transactions t WHERE ${cond} OFFSET 0) m
           ORDER BY created_at DESC, id DESC LIMIT ${reach})`
    : sql`(SELECT t.id, t.created_at FROM bank_transactions t WHERE ${cond}
           ORDER BY t.created_at DESC, t.id DESC LIMIT ${reach})`;
}

/**
 * The ids and times of the matches of `conds` (each the full condition of one branch) up to `reach` per
 * branch, as one UNION ALL to order and page; null when no branch has a match. Run it with generic plans
 * (`readWithGenericPlans`): each branch's form names its index, whatever the amount.
 */
export async function amountBoundIds(db: DbOrTx, conds: SQL[], reach: number): Promise<SQL | null> {
  const matches = await matchesUpToFew(db, conds);
  const parts = conds.flatMap((c, i) => amountBranchIds(c, matches[i] ?? 0, reach) ?? []);
  return parts.length === 0 ? null : sql.join(parts, sql` UNION ALL `);
}
