/**
 * SQL of the ledger's reports (ledger pages: transactions-list.queries.ts): category totals, the
 * conservation audit, supply history. Totals come from the ledger rollup (rollup.queries.ts) for whole
 * buckets below its watermark and from the ledger itself (index `bank_tx_created`) for the rest, so each
 * answer equals a full scan of the ledger in the same snapshot.
 * Reads other modules' tables: `balances` and `bank_transactions` (the ledger's: the reports sum them; the ledger only writes) and `currencies` (the bank's: the ticker and precision of each row, joined in the report's one statement).
 */
import { type Amount, fromNumeric, type SupplyInterval } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryPlanned } from '../../db/client.ts';
import { endOfDay } from '../../db/date-range.ts';
import { pgArray } from '../../db/pg-array.ts';
import { readWithGenericPlans } from '../../db/transaction.ts';
import { watermarkBefore } from '../../db/watermark.ts';
import { DAY, EPOCH, HOUR, ledgerSums, minuteFloor } from './rollup.queries.ts';

/** The rollup's watermark, or -infinity when it is not built (then every row comes from the ledger). */
const WATERMARK = sql`coalesce((SELECT watermark FROM ledger_rollup_state WHERE id = 1), '-infinity'::timestamptz)`;

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A time bound as SQL text: an ISO instant, or ±infinity. */
function at(ms: number): string {
  if (ms === Number.NEGATIVE_INFINITY) return '-infinity';
  if (ms === Number.POSITIVE_INFINITY) return 'infinity';
  return new Date(ms).toISOString();
}
const ceilTo = (ms: number, w: number) => (Number.isFinite(ms) ? Math.ceil(ms / w) * w : ms);
const floorTo = (ms: number, w: number) => (Number.isFinite(ms) ? Math.floor(ms / w) * w : ms);

/**
 * How the range `start <= created_at <= end` (ms; ±Infinity when open; `end` inclusive, whole ms, as
 * `endOfDay` gives it) splits: the rollup rows of whole buckets inside it (days in the middle, hours next
 * to them, minutes at the edges where the rollup keeps them, from `floor` on; or the all-time row when the
 * range is open both ways), which together cover the times `[from, to)`; the ledger answers for the rest
 * of the range and for `[watermark, to)`.
 */
function splitRange(start: number, end: number, floor: number): { rollup: SQL; from: number; to: number } {
  if (start === Number.NEGATIVE_INFINITY && end === Number.POSITIVE_INFINITY) {
    return { rollup: sql`r.grain = 'all'`, from: start, to: end };
  }
  const grain = (g: string, a: number, b: number) =>
    sql`(r.grain = ${g} AND r.bucket >= ${at(a)}::timestamptz AND r.bucket < ${at(b)}::timestamptz)`;
  // A bucket [b, b + w) lies inside when b >= start and b + w <= end (both whole ms, rows in µs).
  const m0 = ceilTo(start, MINUTE_MS);
  const m1 = floorTo(end, MINUTE_MS);
  const h0 = ceilTo(start, HOUR_MS);
  const h1 = floorTo(end, HOUR_MS);
  if (!(h0 < h1)) {
    // No whole hour: the minutes, when both hours the range touches keep theirs.
    if (m0 < m1 && floorTo(m0, HOUR_MS) >= floor) return { rollup: grain('minute', m0, m1), from: m0, to: m1 };
    return { rollup: sql`false`, from: start, to: start };
  }
  const d0 = ceilTo(start, DAY_MS);
  const d1 = floorTo(end, DAY_MS);
  const parts =
    d0 < d1 ? [grain('day', d0, d1), grain('hour', h0, d0), grain('hour', d1, h1)] : [grain('hour', h0, h1)];
  let from = h0;
  let to = h1;
  // The start lies in the hour before h0, the end in the hour from h1.
  if (m0 < h0 && h0 - HOUR_MS >= floor) {
    parts.push(grain('minute', m0, h0));
    from = m0;
  }
  if (h1 < m1 && h1 >= floor) {
    parts.push(grain('minute', h1, m1));
    to = m1;
  }
  return { rollup: sql`(${sql.join(parts, sql` OR `)})`, from, to };
}

/**
 * Per currency and category: the sum and count of ledger rows in a date range (`startDate` from its
 * instant, `endDate` through its day's end when a date, SPEC §2), currencies and categories with rows
 * only. Whole UTC days and hours (and minutes of the last days) come from the rollup, the edges and the
 * rows above the watermark from the ledger: the same answer as summing the ledger, reading at most two
 * edge minutes (edge hours before the last two days) and the tail.
 */
export async function findCategoryTotals(
  db: DbOrTx,
  f: { startDate?: string | undefined; endDate?: string | undefined; currencyId?: number | undefined },
): Promise<Array<{ currencyId: number; precision: number; category: number; total: Amount; count: number }>> {
  const start = f.startDate ? Date.parse(new Date(f.startDate).toISOString()) : Number.NEGATIVE_INFINITY;
  const end = f.endDate ? Date.parse(endOfDay(f.endDate)) : Number.POSITIVE_INFINITY;
  const { rollup, from, to } = splitRange(start, end, minuteFloor());
  const currency = (col: SQL) => (f.currencyId === undefined ? sql`true` : sql`${col} = ${f.currencyId}`);
  const known = await watermarkBefore(db, sql`ledger_rollup_state`);
  // The ledger's parts are time ranges of `bank_tx_created`, the currency checked on their rows: written
  // `currency_id + 0` so that no index on the currency can serve it. Its generic plan once took
  // `bank_tx_currency_category_created` by the currency alone (its category unknown), and walked every
  // entry of the currency for each edge.
  const ledger = (lo: SQL, hi: SQL) => sql`
    SELECT currency_id, category, count(*) AS n, sum(amount) AS total FROM bank_transactions
    WHERE created_at >= ${lo} AND ${hi} AND ${currency(sql`(currency_id + 0)`)} GROUP BY 1, 2`;
  // Its generic plan (one of a few shapes, each named once per connection): index ranges of the rollup by
  // currency and of `bank_tx_created` for the edges and the tail, which PostgreSQL otherwise parsed and
  // planned on every call.
  const rows = await readWithGenericPlans(db, (q) =>
    queryPlanned<{
      currency_id: number;
      precision: number;
      category: number;
      total: string;
      n: string;
    }>(
      q,
      sql`
    WITH mark AS (SELECT ${WATERMARK} AS w),
    parts AS (
      SELECT r.currency_id, r.category, r.n, r.total FROM ledger_rollup r
      WHERE EXISTS (SELECT 1 FROM ledger_rollup_state WHERE id = 1) AND ${rollup} AND ${currency(sql`r.currency_id`)}
      UNION ALL
      ${ledger(sql`${at(start)}::timestamptz`, sql`created_at < ${at(from)}::timestamptz`)}
      UNION ALL
      ${ledger(
        sql`greatest(${at(from)}::timestamptz, least(${at(to)}::timestamptz, (SELECT w FROM mark)))`,
        sql`created_at >= greatest(${at(from)}::timestamptz, least(${at(to)}::timestamptz, ${known}::timestamptz))
            AND created_at <= ${at(end)}::timestamptz`,
      )})
    SELECT p.currency_id, min(c.precision) AS precision, p.category, sum(p.total) AS total, sum(p.n) AS n
    FROM parts p JOIN currencies c ON c.currency_id = p.currency_id
    GROUP BY p.currency_id, p.category HAVING sum(p.n) > 0 ORDER BY p.currency_id, p.category`,
    ),
  );
  return rows.map((r) => ({
    currencyId: Number(r.currency_id),
    precision: Number(r.precision),
    category: Number(r.category),
    total: fromNumeric(String(r.total)),
    count: Number(r.n),
  }));
}

/** DESIGN §4 conservation inputs of one currency. */
export interface ConservationRow {
  currencyId: number;
  ticker: string;
  precision: number;
  balances: Amount;
  negative: number;
  issued: Amount;
  removed: Amount;
  escrow: Amount;
}

/**
 * DESIGN §4 conservation inputs per currency, all from one statement (one snapshot): the sum of balances
 * and the count of negative ones (one pass over `balances`), and issued, removed and escrow held. `kept`
 * (the incremental audit) takes the ledger's sums from the rollup's all-time rows plus the ledger rows
 * from the watermark on; `full` (the full recount) scans the whole ledger.
 */
export async function findConservation(db: DbOrTx, mode: 'kept' | 'full'): Promise<ConservationRow[]> {
  const known = mode === 'kept' ? await watermarkBefore(db, sql`ledger_rollup_state`) : '-infinity';
  const ledger =
    mode === 'full'
      ? sql`SELECT currency_id, ${ledgerSums()} FROM bank_transactions GROUP BY currency_id`
      : sql`SELECT currency_id, sum(n) AS n, sum(total) AS total, sum(issued) AS issued, sum(removed) AS removed,
                   sum(escrow_in) AS escrow_in, sum(escrow_out) AS escrow_out
            FROM (SELECT currency_id, n, total, issued, removed, escrow_in, escrow_out FROM ledger_rollup
                   WHERE grain = 'all' AND EXISTS (SELECT 1 FROM ledger_rollup_state WHERE id = 1)
                  UNION ALL
                  SELECT currency_id, ${ledgerSums()} FROM bank_transactions
                   WHERE created_at >= ${known}::timestamptz AND created_at >= ${WATERMARK}
                   GROUP BY currency_id) x
            GROUP BY currency_id`;
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
    WITH bal AS (
      SELECT currency_id, sum(amount) AS total, count(*) FILTER (WHERE amount < 0) AS negative
      FROM balances GROUP BY currency_id),
    led AS (${ledger})
    SELECT c.currency_id, c.ticker, c.precision,
      coalesce(b.total, 0) AS balances, coalesce(b.negative, 0) AS negative,
      coalesce(l.issued, 0) AS issued, coalesce(l.removed, 0) AS removed,
      coalesce(l.escrow_in, 0) - coalesce(l.escrow_out, 0) AS escrow
    FROM currencies c LEFT JOIN bal b ON b.currency_id = c.currency_id LEFT JOIN led l ON l.currency_id = c.currency_id
    ORDER BY c.currency_id`);
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

const SUPPLY: Record<SupplyInterval, { width: SQL; grain: string }> = {
  '1h': { width: HOUR, grain: 'hour' },
  '1d': { width: DAY, grain: 'day' },
};

/** One bucket of a currency's history: the running totals at the bucket's end. */
export interface SupplyRow {
  /** The bucket's start (buckets aligned to the epoch, UTC). */
  time: Date;
  supply: Amount;
  circulating: Amount;
}

/**
 * The last `limit` buckets of `interval` of each currency of `currencyIds`, by currency, oldest first,
 * ending with the one holding now; every bucket has a row (no gaps). Each row sums the currency's ledger
 * from the beginning of time to the bucket's end: `supply` = issued - removed as `findConservation`
 * counts them (escrow rows excluded), and `circulating` = the signed totals of the `add` categories minus
 * those of the `subtract` categories, `negative` categories signed negative, as `currencyStats` computes
 * it (SPEC §3). From the rollup (index `ledger_rollup_currency`, one range per currency): the all-time
 * row less the window's buckets gives the total before the window, the window's buckets its steps; the
 * ledger adds its rows from the watermark on. Reads at most `limit` buckets' rows per currency, in one
 * statement for every currency (the /analytics page shows them all).
 */
export async function findSupplyHistories(
  db: DbOrTx,
  currencyIds: readonly number[],
  interval: SupplyInterval,
  limit: number,
  rule: { add: readonly number[]; subtract: readonly number[]; negative: readonly number[] },
): Promise<Map<number, SupplyRow[]>> {
  const out = new Map<number, SupplyRow[]>(currencyIds.map((id) => [id, []]));
  if (currencyIds.length === 0) return out;
  const { width, grain } = SUPPLY[interval];
  const known = await watermarkBefore(db, sql`ledger_rollup_state`);
  const ids = sql`${pgArray([...currencyIds])}::int[]`;
  const add = sql`${pgArray([...rule.add])}::int[]`;
  const subtract = sql`${pgArray([...rule.subtract])}::int[]`;
  const negative = sql`${pgArray([...rule.negative])}::int[]`;
  // Per row (rollup or ledger, both with category, total, issued, removed): the supply and circulating steps.
  const steps = sql`
    coalesce(sum(issued - removed), 0) AS supply,
    coalesce(sum(CASE WHEN category = ANY(${negative}) THEN -total ELSE total END)
      FILTER (WHERE category = ANY(${add})), 0)
      - coalesce(sum(CASE WHEN category = ANY(${negative}) THEN -total ELSE total END)
      FILTER (WHERE category = ANY(${subtract})), 0) AS circulating`;
  const res = await db.execute<{ currency_id: number; bucket: string | Date; supply: string; circulating: string }>(sql`
    WITH mark AS (SELECT ${WATERMARK} AS w, EXISTS (SELECT 1 FROM ledger_rollup_state WHERE id = 1) AS built),
    bounds AS (SELECT date_bin(${width}, now(), ${EPOCH}) AS last),
    win AS (SELECT last - ${limit - 1}::int * ${width} AS first, last + ${width} AS stop FROM bounds),
    cur AS (SELECT unnest(${ids}) AS currency_id),
    buckets AS (
      SELECT c.currency_id, g.bucket FROM cur c CROSS JOIN win
      CROSS JOIN LATERAL generate_series(win.first, win.stop - ${width}, ${width}) AS g(bucket)),
    kept AS (
      SELECT r.currency_id, r.grain, r.bucket, r.category, r.total, r.issued, r.removed
      FROM cur c JOIN ledger_rollup r ON r.currency_id = c.currency_id, mark
      WHERE mark.built AND (r.grain = 'all' OR (r.grain = ${grain} AND r.bucket >= (SELECT first FROM win)))),
    tail AS (
      SELECT t.currency_id, t.created_at, t.category, t.amount AS total,
             CASE WHEN t.sender_id IS NULL AND NOT t.escrow THEN t.amount ELSE 0 END AS issued,
             CASE WHEN t.recipient_id IS NULL AND NOT t.escrow THEN t.amount ELSE 0 END AS removed
      FROM bank_transactions t
      WHERE t.currency_id = ANY(${ids}) AND t.created_at >= ${known}::timestamptz
        AND t.created_at >= (SELECT w FROM mark)
        AND t.created_at < (SELECT stop FROM win)),
    moves AS (
      SELECT currency_id, bucket, ${steps} FROM kept WHERE grain = ${grain} GROUP BY currency_id, bucket
      UNION ALL
      SELECT currency_id, greatest(date_bin(${width}, created_at, ${EPOCH}), (SELECT first FROM win)), ${steps}
      FROM tail GROUP BY 1, 2),
    alltime AS (SELECT currency_id, ${steps} FROM kept WHERE grain = 'all' GROUP BY currency_id),
    inwin AS (SELECT currency_id, ${steps} FROM kept WHERE grain = ${grain} GROUP BY currency_id),
    before AS (
      SELECT c.currency_id, coalesce(a.supply, 0) - coalesce(i.supply, 0) AS supply,
             coalesce(a.circulating, 0) - coalesce(i.circulating, 0) AS circulating
      FROM cur c LEFT JOIN alltime a ON a.currency_id = c.currency_id
      LEFT JOIN inwin i ON i.currency_id = c.currency_id),
    per AS (
      SELECT currency_id, bucket, sum(supply) AS supply, sum(circulating) AS circulating
      FROM moves GROUP BY currency_id, bucket)
    SELECT b.currency_id, b.bucket,
           f.supply + sum(coalesce(p.supply, 0)) OVER (PARTITION BY b.currency_id ORDER BY b.bucket) AS supply,
           f.circulating
             + sum(coalesce(p.circulating, 0)) OVER (PARTITION BY b.currency_id ORDER BY b.bucket) AS circulating
    FROM buckets b JOIN before f ON f.currency_id = b.currency_id
    LEFT JOIN per p ON p.currency_id = b.currency_id AND p.bucket = b.bucket
    ORDER BY b.currency_id, b.bucket`);
  for (const r of res.rows) {
    out.get(Number(r.currency_id))?.push({
      time: new Date(r.bucket),
      supply: fromNumeric(String(r.supply)),
      circulating: fromNumeric(String(r.circulating)),
    });
  }
  return out;
}

/** One currency's `findSupplyHistories`. */
export async function findSupplyHistory(
  db: DbOrTx,
  currencyId: number,
  interval: SupplyInterval,
  limit: number,
  rule: { add: readonly number[]; subtract: readonly number[]; negative: readonly number[] },
): Promise<SupplyRow[]> {
  const rows = await findSupplyHistories(db, [currencyId], interval, limit, rule);
  return rows.get(currencyId) ?? [];
}
