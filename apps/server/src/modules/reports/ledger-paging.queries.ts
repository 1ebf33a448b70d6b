/**
 * SQL of the whole ledger's pages and totals from the rollup's counts: where a page of the
 * unfiltered list starts without walking its offset, and a list's total from the kept counts plus the
 * rows above the watermark. Used by the transaction lists (transactions-list.queries.ts).
 * Reads other modules' tables: `bank_transactions` (the ledger's: the rows above the rollup's watermark, and the index walked to a page's first row).
 */
import { TX_CATEGORY_GROUPS, type TxCategoryGroup } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, type DbOrTx, queryPlanned } from '../../db/client.ts';
import { type CappedTotal, pageSize } from '../../db/paging.ts';
import { readWithGenericPlans } from '../../db/transaction.ts';
import { DAY, HOUR, MINUTE } from './rollup.queries.ts';

/** From this offset on, a page of the whole ledger (no filter) starts where the rollup's counts place it. */
export const ROLLUP_STEP_MIN_OFFSET = 1_000;

/**
 * The first row of a page of the whole ledger (no filter, newest first) from row `offset`: its time (text
 * timestamptz) and id, or null past the end; found without walking `offset` index entries. The ledger
 * rollup counts every row stamped below its watermark per day and per hour (`ledger_rollup`, moved with the
 * watermark in one transaction, so one snapshot sees them agree); the ledger's own rows from the watermark
 * on are counted directly. Days are stepped through newest first, each an index lookup, until the one that
 * holds row `offset`; its hours give the hour and, for an hour from `floor` on (`minuteFloor`), its minutes
 * the minute; the index `bank_tx_created` is then walked backward from that hour's or minute's end (or the
 * watermark), skipping only its rows before the page (a busy hour holds far more rows than a minute).
 * `known`: the watermark read before (`watermarkBefore`), which bounds the tail's index range. Rows below
 * the watermark never change, so the page may be read from this row in a statement of its own, whose plan
 * PostgreSQL keeps (an OFFSET it would plan again each time). Equal to `OFFSET offset` over the whole list
 * (tested in lists.paging). Run in `readWithGenericPlans`: JIT off (the planner's guesses for the rollup's
 * ranges are a third of the table, and compiling for them was most of the answer's time), and its generic
 * plan, every step an index range, where PostgreSQL planned it again on every call at more than the work's
 * own cost.
 */
export async function ledgerPageStart(
  tx: DbOrTx,
  offset: number,
  known: string,
  floor: string,
): Promise<{ at: string; id: string } | null> {
  const off = sql`${offset}::bigint`;
  const rows = await queryPlanned<{ at: string; id: string }>(
    tx,
    sql`
    WITH RECURSIVE mark AS MATERIALIZED (
      SELECT s.watermark AS w,
             (SELECT count(*) FROM bank_transactions t
               WHERE t.created_at >= ${known}::timestamptz AND t.created_at >= s.watermark) AS tail
      FROM ledger_rollup_state s WHERE s.id = 1
    ), days(bucket, n, newer) AS (
      SELECT d.bucket, d.n, (SELECT tail FROM mark) FROM (
        SELECT r.bucket, sum(r.n)::bigint AS n FROM ledger_rollup r
        WHERE r.grain = 'day' AND r.bucket = (SELECT max(x.bucket) FROM ledger_rollup x WHERE x.grain = 'day')
        GROUP BY r.bucket) d
      UNION ALL
      SELECT d.bucket, d.n, w.newer + w.n FROM days w
      CROSS JOIN LATERAL (
        SELECT r.bucket, sum(r.n)::bigint AS n FROM ledger_rollup r
        WHERE r.grain = 'day'
          AND r.bucket = (SELECT max(x.bucket) FROM ledger_rollup x WHERE x.grain = 'day' AND x.bucket < w.bucket)
        GROUP BY r.bucket) d
      WHERE w.newer + w.n <= ${off}
    ), day AS MATERIALIZED (
      SELECT bucket, newer FROM days WHERE newer + n > ${off}
    ), hour AS MATERIALIZED (
      SELECT h.bucket, h.newer FROM (
        SELECT r.bucket, d.newer + sum(sum(r.n)) OVER (ORDER BY r.bucket DESC) - sum(r.n) AS newer, sum(r.n) AS n
        FROM day d JOIN ledger_rollup r
          ON r.grain = 'hour' AND r.bucket >= d.bucket AND r.bucket < d.bucket + ${DAY}
        GROUP BY r.bucket, d.newer) h
      WHERE h.newer + h.n > ${off} ORDER BY h.bucket DESC LIMIT 1
    ), minute AS MATERIALIZED (
      SELECT m.bucket, m.newer FROM hour h CROSS JOIN LATERAL (
        SELECT r.bucket, h.newer + sum(sum(r.n)) OVER (ORDER BY r.bucket DESC) - sum(r.n) AS newer, sum(r.n) AS n
        FROM ledger_rollup r
        WHERE r.grain = 'minute' AND r.bucket >= h.bucket AND r.bucket < h.bucket + ${HOUR}
        GROUP BY r.bucket) m
      WHERE h.bucket >= ${floor}::timestamptz AND m.newer + m.n > ${off} ORDER BY m.bucket DESC LIMIT 1
    ), start AS (
      SELECT CASE WHEN m.tail > ${off} THEN 'infinity'::timestamptz
                  WHEN h.bucket IS NULL THEN '-infinity'::timestamptz
                  WHEN i.bucket IS NOT NULL THEN least(i.bucket + ${MINUTE}, m.w)
                  ELSE least(h.bucket + ${HOUR}, m.w) END AS before,
             CASE WHEN m.tail > ${off} THEN ${off} ELSE ${off} - coalesce(i.newer, h.newer) END AS skip
      FROM mark m LEFT JOIN hour h ON true LEFT JOIN minute i ON true
    )
    SELECT p.created_at::text AS at, p.id FROM start CROSS JOIN LATERAL (
      SELECT t.created_at, t.id FROM bank_transactions t WHERE t.created_at < start.before
      ORDER BY t.created_at DESC, t.id DESC OFFSET start.skip LIMIT 1) p`,
  );
  return rows[0] ?? null;
}

/**
 * The ledger rows of `cond` (a condition on `t`, one index range) stamped from the rollup's watermark on,
 * the rows its counts lack: a SELECT of 1 per row, within a statement that reads `ledger_rollup_state s`.
 * `known` (ISO text, a watermark read before, as for `ledgerPageStart`) bounds the index range for a generic
 * plan, which `s.watermark` alone cannot.
 */
export function rowsFromWatermark(cond: SQL, known: string): SQL {
  return sql`SELECT 1 FROM bank_transactions t
              WHERE ${cond} AND t.created_at >= ${known}::timestamptz AND t.created_at >= s.watermark`;
}

/**
 * The number of ledger rows in the branches `branches` (conditions on `t`, each an index range, as the page
 * reads them) of the currency and category `keys` (either may be absent) stamped from `from` on (ISO text,
 * a day's start in UTC, or '-infinity' for all of them): from the rollup's counts (`ledger_rollup`, grain
 * `all` for every row, else grain `day` from `from`'s day on; rows below the watermark, day buckets being
 * aligned to UTC midnight) plus the branches' rows from the watermark on (`known` as for `ledgerPageStart`
 * bounds their index ranges). The exact count, the same on every page of a list, without counting millions
 * of index entries: a few hundred rollup rows and the rows of the last seconds. Run with its generic plan
 * (one index range per branch whatever the watermark): PostgreSQL planned it again on every call, at many
 * times the work's cost, since a generic `created_at >= $n` looks like a third of the ledger to it.
 */
export async function ledgerKeptTotal(
  db: Db,
  known: string,
  branches: readonly SQL[],
  keys: { currencyId?: number | undefined; category?: number | undefined; categoryGroup?: TxCategoryGroup | undefined },
  from = '-infinity',
): Promise<CappedTotal> {
  const kept =
    from === '-infinity'
      ? [sql`r.grain = 'all'`]
      : [sql`r.grain = 'day'`, sql`r.bucket >= ${from}::timestamptz`, sql`r.bucket < s.watermark`];
  if (keys.currencyId !== undefined) kept.push(sql`r.currency_id = ${keys.currencyId}`);
  if (keys.category !== undefined) kept.push(sql`r.category = ${keys.category}`);
  if (keys.categoryGroup !== undefined) {
    kept.push(
      sql`r.category IN (${sql.join(
        TX_CATEGORY_GROUPS[keys.categoryGroup].map((c) => sql`${c}`),
        sql`, `,
      )})`,
    );
  }
  const tail = sql.join(
    branches.map((b) => sql`${rowsFromWatermark(b, known)} AND t.created_at >= ${from}::timestamptz`),
    sql` UNION ALL `,
  );
  const total = sql`
    SELECT (SELECT count(*) FROM (${tail}) x)
         + (SELECT coalesce(sum(r.n), 0) FROM ledger_rollup r WHERE ${sql.join(kept, sql` AND `)}) AS n
    FROM ledger_rollup_state s WHERE s.id = 1`;
  const rows = await readWithGenericPlans(db, (tx) => queryPlanned<{ n: string | null }>(tx, total));
  return { total: Number(rows[0]?.n ?? 0), totalCapped: false };
}

/**
 * The ids and times of a list's page that holds the end of a sought day, given how many of its rows are
 * stamped from `after` on (ISO text: the start of the next day) and the page's start: `above` (that count
 * less the page's offset, 0 to `limit`) rows nearest above `after`, read upward, and the rest of the page
 * below it, read downward. `conds`: the list's branches, each its whole condition on `t` and one ordered
 * range of an index. Two short ranges of each branch's index, where reading the page by its offset walked
 * every row newer than it; the same rows when the count is exact.
 */
export function pageAroundDay(conds: readonly SQL[], after: string, above: number, limit: number): SQL {
  const side = (up: boolean, n: number) => {
    const order = up ? sql`ASC` : sql`DESC`;
    const from = up ? sql`t.created_at >= ${after}::timestamptz` : sql`t.created_at < ${after}::timestamptz`;
    const parts = conds.map(
      (c) => sql`(SELECT t.id, t.created_at FROM bank_transactions t WHERE ${c} AND ${from}
                  ORDER BY t.created_at ${order}, t.id ${order} LIMIT ${n})`,
    );
    return sql`(SELECT id, created_at FROM (${sql.join(parts, sql` UNION ALL `)}) b
                ORDER BY created_at ${order}, id ${order} LIMIT ${n})`;
  };
  const sides = [...(above > 0 ? [side(true, above)] : []), ...(above < limit ? [side(false, limit - above)] : [])];
  return sql`SELECT id, created_at FROM (${sql.join(sides, sql` UNION ALL `)}) s LIMIT ${pageSize(limit)}`;
}
