/**
 * The exchange's candles, kept for the stats: `trade_candles` holds each pair's OHLC per minute,
 * hour and day for the trades stamped below its watermark, added by the rollup job's tick
 * (`tickTradeCandles`, in the ledger rollup's transaction: modules/reports/rollup.queries.ts). `findCandles`
 * reads at most `limit` x (interval / stored width) kept rows and the trades from the watermark on, so
 * its answer equals grouping every trade of the pair, without reading them.
 */
import { type Amount, type CandleInterval, fromNumeric } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { watermarkBefore } from '../../db/watermark.ts';

const EPOCH = sql`TIMESTAMPTZ '1970-01-01 00:00:00+00'`;
const WIDTHS = { '1m': sql`'1 minute'::interval`, '1h': sql`'1 hour'::interval`, '1d': sql`'24 hours'::interval` };
type Width = keyof typeof WIDTHS;

/** Each interval: its width, the kept width it is made of, and how many of those one holds. */
const INTERVALS: Record<CandleInterval, { width: SQL; kept: Width; ratio: number }> = {
  '1m': { width: sql`'1 minute'::interval`, kept: '1m', ratio: 1 },
  '5m': { width: sql`'5 minutes'::interval`, kept: '1m', ratio: 5 },
  '15m': { width: sql`'15 minutes'::interval`, kept: '1m', ratio: 15 },
  '1h': { width: sql`'1 hour'::interval`, kept: '1h', ratio: 1 },
  '4h': { width: sql`'4 hours'::interval`, kept: '1h', ratio: 4 },
  '1d': { width: sql`'24 hours'::interval`, kept: '1d', ratio: 1 },
};

/** OHLC of trades `t` in scope, named as the columns of `trade_candles`. */
const TRADE_OHLC = sql`min(t.seq) AS open_seq, (array_agg(t.price ORDER BY t.seq))[1] AS open,
  max(t.price) AS high, min(t.price) AS low, max(t.seq) AS close_seq,
  (array_agg(t.price ORDER BY t.seq DESC))[1] AS close, sum(t.amount) AS volume, count(*) AS n`;
/** The same over candle rows `c` (finer candles folded into coarser ones). */
const CANDLE_OHLC = sql`min(c.open_seq) AS open_seq, (array_agg(c.open ORDER BY c.open_seq))[1] AS open,
  max(c.high) AS high, min(c.low) AS low, max(c.close_seq) AS close_seq,
  (array_agg(c.close ORDER BY c.close_seq DESC))[1] AS close, sum(c.volume) AS volume, sum(c.n) AS n`;

/** Upserts candles of `width` from `source` (pair_id, bucket and the OHLC columns), merging by seq. */
function upsert(width: Width, source: SQL): SQL {
  return sql`
    INSERT INTO trade_candles AS k (pair_id, width, bucket, open_seq, open, high, low, close_seq, close, volume, n)
    SELECT pair_id, ${width}, bucket, open_seq, open, high, low, close_seq, close, volume, n FROM ${source}
    ON CONFLICT (pair_id, width, bucket) DO UPDATE SET
      open = CASE WHEN EXCLUDED.open_seq < k.open_seq THEN EXCLUDED.open ELSE k.open END,
      open_seq = least(k.open_seq, EXCLUDED.open_seq),
      close = CASE WHEN EXCLUDED.close_seq > k.close_seq THEN EXCLUDED.close ELSE k.close END,
      close_seq = greatest(k.close_seq, EXCLUDED.close_seq),
      high = greatest(k.high, EXCLUDED.high), low = least(k.low, EXCLUDED.low),
      volume = k.volume + EXCLUDED.volume, n = k.n + EXCLUDED.n
    RETURNING 1`;
}

/**
 * Folds the trades stamped in [from, to) into the kept candles of every width, in one statement. Pair by
 * pair (deleted pairs keep their rows), so each reads its range of `exchange_trades_pair_time`.
 */
async function addTrades(tx: Tx, from: string, to: Date): Promise<number> {
  const res = await tx.execute<{ n: string }>(sql`
    WITH src AS (
      SELECT t.pair_id, date_bin(${WIDTHS['1m']}, t.created_at, ${EPOCH}) AS bucket, ${TRADE_OHLC}
      FROM exchange_pairs p
      JOIN exchange_trades t ON t.pair_id = p.id
        AND t.created_at >= ${from}::timestamptz AND t.created_at < ${to.toISOString()}::timestamptz
      GROUP BY 1, 2),
    m AS (${upsert('1m', sql`src`)}),
    h AS (${upsert('1h', sql`(SELECT c.pair_id, date_bin(${WIDTHS['1h']}, c.bucket, ${EPOCH}) AS bucket, ${CANDLE_OHLC} FROM src c GROUP BY 1, 2) x`)}),
    d AS (${upsert('1d', sql`(SELECT c.pair_id, date_bin(${WIDTHS['1d']}, c.bucket, ${EPOCH}) AS bucket, ${CANDLE_OHLC} FROM src c GROUP BY 1, 2) x`)})
    SELECT coalesce((SELECT sum(n) FROM src), 0) AS n,
           (SELECT count(*) FROM m) + (SELECT count(*) FROM h) + (SELECT count(*) FROM d) AS written`);
  return Number(res.rows[0]?.n ?? 0);
}

/**
 * The candles' part of a rollup tick, in the job's transaction after it read the committed horizon `h`:
 * adds the trades stamped between the watermark and `h` and moves the watermark to `h` (each trade
 * counted once); without a state row, rebuilds from every trade below `h`. Returns the trades added.
 */
export async function tickTradeCandles(tx: Tx, h: Date): Promise<number> {
  const state = await tx.execute<{ w: string | Date }>(
    sql`SELECT watermark AS w FROM trade_candles_state WHERE id = 1 FOR UPDATE`,
  );
  const w = state.rows[0]?.w;
  if (w === undefined) {
    await tx.execute(sql`DELETE FROM trade_candles`);
    const n = await addTrades(tx, '-infinity', h);
    await tx.execute(sql`
      INSERT INTO trade_candles_state (id, watermark, built_at) VALUES (1, ${h.toISOString()}::timestamptz, now())
      ON CONFLICT (id) DO UPDATE SET watermark = EXCLUDED.watermark, built_at = now()`);
    return n;
  }
  if (h <= new Date(w)) return 0;
  const n = await addTrades(tx, new Date(w).toISOString(), h);
  await tx.execute(sql`UPDATE trade_candles_state SET watermark = ${h.toISOString()}::timestamptz WHERE id = 1`);
  return n;
}

/** Drops the kept candles' state, so the next tick (or `tickTradeCandles`) rebuilds them from the trades. */
export async function resetTradeCandles(tx: Tx): Promise<void> {
  await tx.execute(sql`DELETE FROM trade_candles_state`);
}

/** One OHLC bucket. */
export interface CandleRow {
  time: Date;
  open: Amount;
  high: Amount;
  low: Amount;
  close: Amount;
  volume: Amount;
}

/**
 * The last `limit` buckets of `interval` that hold trades, oldest first (buckets aligned to the epoch,
 * UTC): open and close the prices of the bucket's lowest and highest trade `seq`, high, low, and volume
 * the sum of amounts. From the kept candles (the latest `limit` x ratio rows of the width it is made of,
 * which hold every row of its latest `limit` buckets) and the pair's trades from the watermark on
 * (index `exchange_trades_pair_time`).
 */
export async function findCandles(
  db: DbOrTx,
  pairId: string,
  interval: CandleInterval,
  limit: number,
): Promise<CandleRow[]> {
  const { width, kept, ratio } = INTERVALS[interval];
  // The watermark as a constant first (see `watermarkBefore`): the trades' tail is then an index range.
  const known = await watermarkBefore(db, sql`trade_candles_state`);
  const res = await db.execute<{
    bucket: string | Date;
    open: string;
    high: string;
    low: string;
    close: string;
    volume: string;
  }>(sql`
    WITH mark AS (
      SELECT coalesce((SELECT watermark FROM trade_candles_state WHERE id = 1), '-infinity'::timestamptz) AS w),
    kept AS (
      SELECT c.bucket, c.open_seq, c.open, c.high, c.low, c.close_seq, c.close, c.volume, c.n FROM trade_candles c
      WHERE c.pair_id = ${pairId} AND c.width = ${kept} AND EXISTS (SELECT 1 FROM trade_candles_state WHERE id = 1)
      ORDER BY c.bucket DESC LIMIT ${limit * ratio}),
    parts AS (
      SELECT date_bin(${width}, c.bucket, ${EPOCH}) AS bucket, c.open_seq, c.open, c.high, c.low, c.close_seq,
             c.close, c.volume, c.n FROM kept c
      UNION ALL
      SELECT date_bin(${width}, t.created_at, ${EPOCH}), ${TRADE_OHLC} FROM exchange_trades t
      WHERE t.pair_id = ${pairId} AND t.created_at >= ${known}::timestamptz AND t.created_at >= (SELECT w FROM mark)
      GROUP BY 1)
    SELECT * FROM (
      SELECT c.bucket, ${CANDLE_OHLC} FROM parts c GROUP BY c.bucket ORDER BY c.bucket DESC LIMIT ${limit}
    ) x ORDER BY bucket ASC`);
  return res.rows.map((r) => ({
    time: new Date(r.bucket),
    open: fromNumeric(String(r.open)),
    high: fromNumeric(String(r.high)),
    low: fromNumeric(String(r.low)),
    close: fromNumeric(String(r.close)),
    volume: fromNumeric(String(r.volume)),
  }));
}
