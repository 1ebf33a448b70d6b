/** Paging of admin and member lists at any size (issue 19): bounded totals. */
import { COUNT_CAP } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from './client.ts';

/**
 * The total of a list whose rows are `SELECT 1 FROM <from>` (`from` is everything after FROM: tables,
 * joins and WHERE), counted only up to `offset + COUNT_CAP` rows: `{total, totalCapped}` where
 * `totalCapped` says more rows match than `total`. The count stops at the bound, so it costs at most that
 * many index entries however large the table; paging on, the bound moves with the page, so Next always
 * leads somewhere while `totalCapped`.
 */
export async function cappedTotal(
  db: DbOrTx,
  from: SQL,
  offset: number,
): Promise<{ total: number; totalCapped: boolean }> {
  const bound = offset + COUNT_CAP;
  const res = await db.execute<{ n: string }>(
    sql`SELECT count(*) AS n FROM (SELECT 1 FROM ${from} LIMIT ${bound + 1}) capped`,
  );
  const n = Number(res.rows[0]?.n ?? 0);
  return n > bound ? { total: bound, totalCapped: true } : { total: n, totalCapped: false };
}
