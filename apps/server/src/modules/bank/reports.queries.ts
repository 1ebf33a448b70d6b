/** SQL of the bank's reports (ledger pages: transactions-list.queries.ts): category totals, the conservation audit, supply history. */
import { type Amount, fromNumeric, type SupplyInterval } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { endOfDay } from '../../db/date-range.ts';
import { pgArray } from '../../db/pg-array.ts';

/** Per currency and category: signed-for-display sum and count of ledger rows in a date range. */
export async function findCategoryTotals(
  db: DbOrTx,
  f: { startDate?: string | undefined; endDate?: string | undefined; currencyId?: number | undefined },
): Promise<Array<{ currencyId: number; precision: number; category: number; total: Amount; count: number }>> {
  const where: SQL[] = [sql`true`];
  if (f.startDate) where.push(sql`created_at >= ${new Date(f.startDate).toISOString()}::timestamptz`);
  if (f.endDate) where.push(sql`created_at <= ${endOfDay(f.endDate)}::timestamptz`);
  if (f.currencyId !== undefined) where.push(sql`currency_id = ${f.currencyId}`);
  const res = await db.execute<{
    currency_id: number;
    precision: number;
    category: number;
    total: string;
    n: string;
  }>(sql`
    SELECT t.currency_id, min(c.precision) AS precision, t.category, sum(t.amount) AS total, count(*) AS n
    FROM (SELECT currency_id, category, amount FROM bank_transactions WHERE ${sql.join(where, sql` AND `)}) t
    JOIN currencies c ON c.currency_id = t.currency_id
    GROUP BY t.currency_id, t.category ORDER BY t.currency_id, t.category`);
  return res.rows.map((r) => ({
    currencyId: Number(r.currency_id),
    precision: Number(r.precision),
    category: Number(r.category),
    total: fromNumeric(String(r.total)),
    count: Number(r.n),
  }));
}

/** DESIGN §4 conservation inputs per currency, all from one statement. */
export async function findConservation(db: DbOrTx): Promise<
  Array<{
    currencyId: number;
    ticker: string;
    precision: number;
    balances: Amount;
    negative: number;
    issued: Amount;
    removed: Amount;
    escrow: Amount;
  }>
> {
  const res = await db.execute<{
    currency_id: number;
    ticker: string;
    precision: number;
    balances: string;
    negative: string;
    issued: string;
    removed: string;
    escrow: string;
  }>(sql`
    SELECT c.currency_id, c.ticker, c.precision,
      coalesce((SELECT sum(amount) FROM balances b WHERE b.currency_id = c.currency_id), 0) AS balances,
      (SELECT count(*) FROM balances b WHERE b.currency_id = c.currency_id AND b.amount < 0) AS negative,
      coalesce(sum(t.amount) FILTER (WHERE t.sender_id IS NULL AND NOT t.escrow), 0) AS issued,
      coalesce(sum(t.amount) FILTER (WHERE t.recipient_id IS NULL AND NOT t.escrow), 0) AS removed,
      coalesce(sum(t.amount) FILTER (WHERE t.recipient_id IS NULL AND t.escrow), 0)
        - coalesce(sum(t.amount) FILTER (WHERE t.sender_id IS NULL AND t.escrow), 0) AS escrow
    FROM currencies c LEFT JOIN bank_transactions t ON t.currency_id = c.currency_id
    GROUP BY c.currency_id, c.ticker, c.precision ORDER BY c.currency_id`);
  return res.rows.map((r) => ({
    currencyId: Number(r.currency_id),
    ticker: r.ticker,
    precision: Number(r.precision),
    balances: fromNumeric(String(r.balances)),
    negative: Number(r.negative),
    issued: fromNumeric(String(r.issued)),
    removed: fromNumeric(String(r.removed)),
    escrow: fromNumeric(String(r.escrow)),
  }));
}

// Days as 24 hours: a calendar '1 day' would follow the session's time zone across DST in generate_series.
const SUPPLY_WIDTHS: Record<SupplyInterval, string> = { '1h': '1 hour', '1d': '24 hours' };

/** One bucket of a currency's history: the running totals at the bucket's end. */
export interface SupplyRow {
  /** The bucket's start (buckets aligned to the epoch, UTC). */
  time: Date;
  supply: Amount;
  circulating: Amount;
}

/**
 * The last `limit` buckets of `interval`, oldest first, ending with the one holding now; every bucket
 * has a row (no gaps). Each row sums the currency's ledger from the beginning of time to the bucket's
 * end: `supply` = issued - removed as `findConservation` counts them (escrow rows excluded), and
 * `circulating` = the signed totals of the `add` categories minus those of the `subtract` categories,
 * `negative` categories signed negative, as `currencyStats` computes it (SPEC §3). Rows before the
 * first bucket are folded into it, so one pass over the currency's rows gives the whole series.
 */
export async function findSupplyHistory(
  db: DbOrTx,
  currencyId: number,
  interval: SupplyInterval,
  limit: number,
  rule: { add: readonly number[]; subtract: readonly number[]; negative: readonly number[] },
): Promise<SupplyRow[]> {
  const width = sql`${SUPPLY_WIDTHS[interval]}::interval`;
  const epoch = sql`TIMESTAMPTZ '1970-01-01 00:00:00+00'`;
  const add = sql`${pgArray([...rule.add])}::int[]`;
  const subtract = sql`${pgArray([...rule.subtract])}::int[]`;
  const negative = sql`${pgArray([...rule.negative])}::int[]`;
  const res = await db.execute<{ bucket: string | Date; supply: string; circulating: string }>(sql`
    WITH bounds AS (
      SELECT date_bin(${width}, now(), ${epoch}) AS last
    ), buckets AS (
      SELECT generate_series(last - ${limit - 1}::int * ${width}, last, ${width}) AS bucket FROM bounds
    ), signed AS (
      SELECT t.created_at, t.category, t.amount, t.sender_id, t.recipient_id, t.escrow,
             CASE WHEN t.category = ANY(${negative}) THEN -t.amount ELSE t.amount END AS stat
      FROM bank_transactions t, bounds
      WHERE t.currency_id = ${currencyId} AND t.created_at < bounds.last + ${width}
    ), moves AS (
      SELECT greatest(date_bin(${width}, created_at, ${epoch}), (SELECT min(bucket) FROM buckets)) AS bucket,
             coalesce(sum(amount) FILTER (WHERE sender_id IS NULL AND NOT escrow), 0)
               - coalesce(sum(amount) FILTER (WHERE recipient_id IS NULL AND NOT escrow), 0) AS supply,
             coalesce(sum(stat) FILTER (WHERE category = ANY(${add})), 0)
               - coalesce(sum(stat) FILTER (WHERE category = ANY(${subtract})), 0) AS circulating
      FROM signed GROUP BY 1
    )
    SELECT b.bucket,
           sum(coalesce(m.supply, 0)) OVER (ORDER BY b.bucket) AS supply,
           sum(coalesce(m.circulating, 0)) OVER (ORDER BY b.bucket) AS circulating
    FROM buckets b LEFT JOIN moves m ON m.bucket = b.bucket
    ORDER BY b.bucket`);
  return res.rows.map((r) => ({
    time: new Date(r.bucket),
    supply: fromNumeric(String(r.supply)),
    circulating: fromNumeric(String(r.circulating)),
  }));
}
