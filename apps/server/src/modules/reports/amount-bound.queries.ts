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
import { type Db, queryPlanned } from '../../db/client.ts';
import { type CappedTotal, stableTotal } from '../../db/paging.ts';
import { readWithGenericPlans } from '../../db/transaction.ts';
import { watermarkBefore } from '../../db/watermark.ts';
import { rowsFromWatermark } from './ledger-paging.queries.ts';

/** Up to how many matches a branch reads whole and sorts, rather than walking its range in date order. */
export const FEW_MATCHES = 5_000;

/**
 * One branch of an amount-bound list: `cond`, its whole condition on `t` (its currency, its category, the
 * amount bound and any dates); `range`, its currency and category alone, on columns `ledger_rollup` keys
 * too, so it reads `ledger_rollup t` as well as `bank_transactions t`.
 */
export interface AmountBranch {
  cond: SQL;
  range: SQL;
}

/** An amount bound as conditions on `t`: the matches (`inside`) and each range of rows outside it. */
export interface AmountBound {
  inside: SQL[];
  outside: SQL[];
}

/** The bound `amountAbove` and `amountBelow` (decimal text, inclusive) make; both empty for neither. */
export function amountBound(above: string | undefined, below: string | undefined): AmountBound {
  const inside: SQL[] = [];
  const outside: SQL[] = [];
  if (above !== undefined) {
    inside.push(sql`t.amount >= ${above}::numeric`);
    outside.push(sql`t.amount < ${above}::numeric`);
  }
  if (below !== undefined) {
    inside.push(sql`t.amount <= ${below}::numeric`);
    outside.push(sql`t.amount > ${below}::numeric`);
  }
  return { inside, outside };
}

/**
 * The matches of each of `conds` (the full condition of one branch), each counted up to
 * `FEW_MATCHES + 1` from the amount index (at most that many index entries a branch, however long its
 * range), with generic plans. In the order of `conds`; read once for both the page and the total.
 */
export function matchesUpToFew(db: Db, conds: SQL[]): Promise<number[]> {
  const bound = sql.raw(String(FEW_MATCHES + 1));
  const columns = conds.map(
    (c, i) =>
      sql`(SELECT count(*)::int FROM (SELECT 1 FROM bank_transactions t WHERE ${c} LIMIT ${bound}) m) AS ${sql.raw(`b${i}`)}`,
  );
  return readWithGenericPlans(db, async (tx) => {
    const [row] = await queryPlanned<Record<string, number>>(tx, sql`SELECT ${sql.join(columns, sql`, `)}`);
    return conds.map((_, i) => Number(row?.[`b${i}`] ?? 0));
  });
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
 * The ids and times of the matches of `conds` (each the full condition of one branch, `matches` their
 * counts from `matchesUpToFew`) up to `reach` per branch, as one UNION ALL to order and page; null when no
 * branch has a match. Run it with generic plans (`readWithGenericPlans`): each branch's form names its
 * index, whatever the amount.
 */
export function amountBoundIds(conds: SQL[], matches: number[], reach: number): SQL | null {
  const parts = conds.flatMap((c, i) => amountBranchIds(c, matches[i] ?? 0, reach) ?? []);
  return parts.length === 0 ? null : sql.join(parts, sql` UNION ALL `);
}

/**
 * The matches of each of `ranges` (a branch's `range`) as its rows less those `outside` the bound, when
 * each range outside it holds at most `FEW_MATCHES` rows; else null. The range's rows are the rollup's
 * count below its watermark plus the rows from the watermark on (`rowsFromWatermark`, as `ledgerKeptTotal`), in
 * the one statement that counts the rows outside, so one snapshot sees them all. Null for every range
 * while the rollup has no watermark or has found rows stamped below it (`backdated`: it lacks them). A
 * range of a million rows, nearly all of them matches, then costs a few index entries where counting its
 * matches walked them all.
 */
async function matchesByComplement(db: Db, ranges: SQL[], outside: SQL[]): Promise<(number | null)[]> {
  const known = ranges.length === 0 ? '-infinity' : await watermarkBefore(db, sql`ledger_rollup_state`);
  if (known === '-infinity') return ranges.map(() => null);
  const bound = sql.raw(String(FEW_MATCHES + 1));
  const columns = ranges.flatMap((range, i) => [
    sql`(SELECT count(*) FROM (${rowsFromWatermark(range, known)}) w)
      + (SELECT coalesce(sum(t.n), 0) FROM ledger_rollup t WHERE t.grain = 'all' AND ${range}) AS ${sql.raw(`n${i}`)}`,
    ...outside.map(
      (o, j) =>
        sql`(SELECT count(*) FROM (SELECT 1 FROM bank_transactions t WHERE ${range} AND ${o} LIMIT ${bound}) x)
            AS ${sql.raw(`o${i}_${j}`)}`,
    ),
  ]);
  const [row] = await readWithGenericPlans(db, (tx) =>
    queryPlanned<Record<string, string>>(
      tx,
      sql`SELECT ${sql.join(columns, sql`, `)} FROM ledger_rollup_state s WHERE s.id = 1 AND s.backdated = 0`,
    ),
  );
  return ranges.map((_, i) => {
    const out = outside.map((_, j) => Number(row?.[`o${i}_${j}`] ?? FEW_MATCHES + 1));
    const n = Number(row?.[`n${i}`] ?? 0) - out.reduce((a, b) => a + b, 0);
    return row === undefined || n < 0 || out.some((o) => o > FEW_MATCHES) ? null : n;
  });
}

/**
 * The total of an amount-bound list without dates, as `stableTotal` answers it up to `cap`, given each
 * branch's match count up to `FEW_MATCHES + 1` (`matchesUpToFew`): a branch with few matches has its
 * count already; one with many is counted by the rows outside the bound when those are few
 * (`matchesByComplement`); the rest are counted up to `cap` from the amount index.
 */
export async function amountBoundTotal(
  db: Db,
  branches: AmountBranch[],
  bound: AmountBound,
  matches: number[],
  cap: number,
): Promise<CappedTotal> {
  const many = branches.filter((_, i) => (matches[i] ?? 0) > FEW_MATCHES);
  let total = matches.reduce((sum, n) => (n > FEW_MATCHES ? sum : sum + n), 0);
  const byComplement = await matchesByComplement(
    db,
    many.map((b) => b.range),
    bound.outside,
  );
  const left: AmountBranch[] = [];
  many.forEach((b, i) => {
    const n = byComplement[i];
    if (n === null || n === undefined) left.push(b);
    else total += n;
  });
  if (left.length > 0) {
    const rows = sql.join(
      left.map((b) => sql`SELECT 1 FROM bank_transactions t WHERE ${b.cond}`),
      sql` UNION ALL `,
    );
    const counted = await stableTotal(db, sql`(${rows}) b`, cap);
    if (counted.totalCapped) return counted;
    total += counted.total;
  }
  return total > cap ? { total: cap, totalCapped: true } : { total, totalCapped: false };
}
