/**
 * The ledger rollup (behind the currency stats and the audit): per bucket, currency and category, the sums of
 * `bank_transactions` that currency stats, supply history and the conservation audit read, kept by a
 * background job that follows the ledger (modules/bank/rollup.queries.ts). Derived data:
 * `rebuildLedgerRollup` makes it again from the ledger at any time. No foreign keys: derived rows.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

/**
 * One row per (grain, bucket, currency, category) holding ledger rows stamped `created_at < watermark`
 * (the state's): `grain` 'minute', 'hour' and 'day' buckets start at their UTC minute, hour or day
 * (aligned to the epoch), minutes kept only for recent hours (`MINUTES_KEPT_MS`, rollup.queries.ts); 'all' has one bucket (the epoch) summing all time. Sums in currency units (NUMERIC, 10^-9 exact):
 * `total` of every row, `issued` (sender null, not escrow), `removed` (recipient null, not escrow),
 * `escrowIn` (recipient null, escrow: put into escrow), `escrowOut` (sender null, escrow: released).
 */
export const ledgerRollup = pgTable(
  'ledger_rollup',
  {
    grain: text('grain', { enum: ['minute', 'hour', 'day', 'all'] }).notNull(),
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    currencyId: integer('currency_id').notNull(),
    category: integer('category').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
    total: numeric('total').notNull(),
    issued: numeric('issued').notNull(),
    removed: numeric('removed').notNull(),
    escrowIn: numeric('escrow_in').notNull(),
    escrowOut: numeric('escrow_out').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.grain, t.bucket, t.currencyId, t.category] }),
    index('ledger_rollup_currency').on(t.currencyId, t.grain, t.bucket),
    // The counts a deep page of Tnx Logs steps through, read from the index alone (`n` INCLUDEd by migration 0031).
    index('ledger_rollup_counts').on(t.grain, t.bucket),
    check('ledger_rollup_grain', sql`${t.grain} IN ('minute', 'hour', 'day', 'all')`),
  ],
);

/**
 * Where the rollup stands (one row, id 1; none: the job rebuilds it from the ledger). `watermark`: every
 * ledger row stamped before it is counted, none after it. `heapEnd`: the position (a tid, '(block,item)') of the
 * last ledger row stored when the watermark was read (rows stored after it were written later, so one
 * stamped below the watermark was backdated). `relfilenode`: the ledger's storage then (a rewrite renumbers blocks).
 * `backdated`: rows found stamped below the watermark since the last rebuild, `backdatedId` the first.
 */
export const ledgerRollupState = pgTable('ledger_rollup_state', {
  id: integer('id').primaryKey(),
  watermark: timestamp('watermark', { withTimezone: true }).notNull(),
  heapEnd: text('heap_end').notNull(),
  relfilenode: bigint('relfilenode', { mode: 'number' }).notNull(),
  backdated: bigint('backdated', { mode: 'number' }).notNull().default(0),
  backdatedId: text('backdated_id'),
  builtAt: timestamp('built_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * What the last full recount that found the rollup equal to the ledger (or the last rebuild) saw of the
 * ledger's table (one row, id 1): its updated and deleted row counters (`pg_stat_user_tables`; the
 * append-only trigger keeps both still), the database's statistics reset time, and its storage
 * (`relfilenode`, changed by TRUNCATE or a rewrite). The incremental audit compares them with now.
 */
export const ledgerAuditBaseline = pgTable('ledger_audit_baseline', {
  id: integer('id').primaryKey(),
  tupUpd: bigint('tup_upd', { mode: 'number' }).notNull(),
  tupDel: bigint('tup_del', { mode: 'number' }).notNull(),
  statsReset: timestamp('stats_reset', { withTimezone: true }),
  relfilenode: bigint('relfilenode', { mode: 'number' }).notNull(),
  recountedAt: timestamp('recounted_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The exchange's candles kept per pair (for the stats): one row per (pair, width '1m' | '1h' | '1d',
 * bucket aligned to the epoch, UTC) holding trades stamped below the state's watermark: open and close
 * (the prices of the lowest and highest `seq`, with those seqs so later trades merge in), high, low,
 * volume (sum of amounts, in the pair's buyCurrency) and the trade count. Kept by the rollup job with the
 * ledger's buckets; `rebuildTradeCandles` makes it again from `exchange_trades`.
 */
export const tradeCandles = pgTable(
  'trade_candles',
  {
    pairId: text('pair_id').notNull(),
    width: text('width', { enum: ['1m', '1h', '1d'] }).notNull(),
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    openSeq: bigint('open_seq', { mode: 'number' }).notNull(),
    open: numeric('open').notNull(),
    high: numeric('high').notNull(),
    low: numeric('low').notNull(),
    closeSeq: bigint('close_seq', { mode: 'number' }).notNull(),
    close: numeric('close').notNull(),
    volume: numeric('volume').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.pairId, t.width, t.bucket] })],
);

/** Where the kept candles stand (one row, id 1; none: the job rebuilds them): trades below `watermark`. */
export const tradeCandlesState = pgTable('trade_candles_state', {
  id: integer('id').primaryKey(),
  watermark: timestamp('watermark', { withTimezone: true }).notNull(),
  builtAt: timestamp('built_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The latest conservation check (the audit's; one row, id 1), taken at one snapshot by the
 * audit-check job (every ~30 s, one replica), by a live audit, or by the full recount: per currency
 * (`currencies`, JSON array of `{currencyId, balances, issued, removed, escrow, negative}`, amounts as
 * integer text in 10^-9 units, as `Amount`), when (`checkedAt`, the snapshot's time), the rollup watermark it used,
 * and `ledgerRows`: how many ledger rows that snapshot held (the audit trusts the check only while the
 * ledger still holds that many). Derived data: any audit makes it again.
 */
export const auditCheckState = pgTable('audit_check', {
  id: integer('id').primaryKey(),
  checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
  watermark: timestamp('watermark', { withTimezone: true }),
  ledgerRows: bigint('ledger_rows', { mode: 'number' }).notNull(),
  full: boolean('full').notNull().default(false),
  currencies: jsonb('currencies').notNull(),
});
