/** Paging of admin and member lists at any size: bounded totals. */
import { COUNT_CAP } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryPlanned } from './client.ts';
import { readWithGenericPlans } from './transaction.ts';

/** A list's total as the wire carries it: `totalCapped` says more rows match than `total`. */
export interface CappedTotal {
  total: number;
  totalCapped: boolean;
}

/**
 * How a list's total is found: `count` runs its capped count (`cappedTotal`); the answer may instead be a
 * kept total the next change of its group drops (lib/kept-totals.ts). `party`: the account every counted
 * row names, where the list passes one (the ledger's: the owner of a member's history, else the account of
 * the nickname filter; null or absent for none). `part`: which count of the list it is, when it has more
 * than its total (the ledger's rows after a sought day); absent for the total.
 */
export type TotalOf = (count: () => Promise<CappedTotal>, party?: string | null, part?: string) => Promise<CappedTotal>;

/** The `TotalOf` that runs the count. */
export const countNow: TotalOf = (count) => count();

/**
 * `n` rows as a total bounded at `offset + COUNT_CAP`, the bound `cappedTotal` counts to: for totals known
 * without counting (kept counts), so they answer what a count would.
 */
export function capTotal(n: number, offset: number): CappedTotal {
  const bound = offset + COUNT_CAP;
  return n > bound ? { total: bound, totalCapped: true } : { total: n, totalCapped: false };
}

/**
 * The total of a list whose rows are `SELECT 1 FROM <from>` (`from` is everything after FROM: tables,
 * joins and WHERE), counted only up to `offset + COUNT_CAP` rows: `{total, totalCapped}` where
 * `totalCapped` says more rows match than `total`. The count stops at the bound, so it costs at most that
 * many index entries however large the table; paging on, the bound moves with the page, so Next always
 * leads somewhere while `totalCapped`.
 */
export async function cappedTotal(db: DbOrTx, from: SQL, offset: number): Promise<CappedTotal> {
  const [row] = await queryPlanned<{ n: string }>(
    db,
    sql`SELECT count(*) AS n FROM (SELECT 1 FROM ${from} LIMIT ${offset + COUNT_CAP + 1}) capped`,
  );
  return capTotal(Number(row?.n ?? 0), offset);
}

/**
 * The total of a list whose rows are `SELECT 1 FROM <from>`, counted up to `cap` rows whatever the page:
 * `{total, totalCapped}` as `cappedTotal` answers it, but the same figure on every page of the list, so
 * a total does not move as one pages (the ledger's lists, `LEDGER_COUNT_CAP`). Costs at most `cap`
 * index entries.
 */
export async function stableTotal(db: DbOrTx, from: SQL, cap: number): Promise<CappedTotal> {
  const [row] = await queryPlanned<{ n: string }>(
    db,
    sql`SELECT count(*) AS n FROM (SELECT 1 FROM ${from} LIMIT ${cap + 1}) capped`,
  );
  const n = Number(row?.n ?? 0);
  return n > cap ? { total: cap, totalCapped: true } : { total: n, totalCapped: false };
}

/** Tables whose rows are never deleted: their row estimate lags behind their rows, never ahead of them. */
export type GrowingTable = 'settlements' | 'access_logs' | 'admin_logs' | 'forge_processes' | 'checkout_transactions';

/**
 * The total of a list with no filter, every row of `table`, as
 * `cappedTotal` answers it, without counting when PostgreSQL's own estimate of the table's rows
 * (`pg_class.reltuples`, kept by VACUUM and ANALYZE) is at least twice the bound: the total is then the
 * bound, `totalCapped`. A table that only grows is never smaller than its last estimate but by the
 * estimate's sampling error, far below that margin. Else counted as `cappedTotal` counts. So the total of
 * a long list costs one catalog row instead of `offset + COUNT_CAP` index entries, and does not grow with
 * the table up to the bound.
 */
export async function wholeTableTotal(db: DbOrTx, table: GrowingTable, offset: number): Promise<CappedTotal> {
  const bound = offset + COUNT_CAP;
  const t = sql.raw(table);
  const [row] = await queryPlanned<{ n: string }>(
    db,
    sql`SELECT CASE WHEN (SELECT c.reltuples FROM pg_class c WHERE c.oid = ${table}::regclass) >= 2 * ${bound}::bigint
                    THEN ${bound}::bigint + 1
                    ELSE (SELECT count(*) FROM (SELECT 1 FROM ${t} LIMIT ${bound + 1}) capped)
               END AS n`,
  );
  return capTotal(Number(row?.n ?? 0), offset);
}

/**
 * A page size as statement text (an integer, 5..50 by the paging schema): PostgreSQL takes a LIMIT
 * parameter for a tenth of the table when it plans a statement to keep, so it planned the deep page's read
 * again on every call, most of the read's time. Throws RangeError for anything but a small integer.
 */
export function pageSize(limit: number): SQL {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) throw new RangeError(`not a page size: ${limit}`);
  return sql.raw(String(limit));
}

/**
 * Reads a page of a whole list (no filter: one range of its date index whatever the page) with its generic
 * plan, which PostgreSQL otherwise made again on every call for the OFFSET it was given: the
 * first page as a statement without parameters (`read` gets its OFFSET as the text `0`), whose one plan
 * each connection keeps unasked; a deeper page in a read-only transaction with generic plans
 * (`readWithGenericPlans`), its OFFSET a parameter. `read(on, offset)` sends the page's statement on `on`,
 * its size written with `pageSize` and no other parameter. Returns what `read` returns.
 */
export function readWholeListPage<T>(
  db: DbOrTx,
  offset: number,
  read: (on: DbOrTx, offset: SQL) => Promise<T>,
): Promise<T> {
  return offset === 0 ? read(db, sql.raw('0')) : readWithGenericPlans(db, (on) => read(on, sql`${offset}`));
}
