/** Paging of admin and member lists at any size (issue 19): bounded totals. */
import { COUNT_CAP } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryPlanned } from './client.ts';

/** A list's total as the wire carries it: `totalCapped` says more rows match than `total`. */
export interface CappedTotal {
  total: number;
  totalCapped: boolean;
}

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
