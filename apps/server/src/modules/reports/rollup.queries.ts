/**
 * The ledger rollup (behind the currency stats and the audit): `ledger_rollup` sums `bank_transactions` per
 * (hour, currency, category), per (day, ...), over all time and, for the last three days, per minute, for every row stamped below the state's
 * watermark. A background job (`startLedgerRollup`, every 2 s, one replica at a time) adds the rows
 * between the watermark and the committed horizon and moves the watermark in one transaction, so each
 * ledger row is counted exactly once; nothing runs on the posting path. Readers add the ledger's rows
 * from the watermark on (index `bank_tx_created`), so their answers equal a full scan at any moment.
 * Reads other modules' tables: `bank_transactions` (the ledger's: the rollup sums its rows; nothing runs on the posting path).
 */
import { type SQL, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger } from 'fastify';
import { type Db, type DbOrTx, queryNamed, type Tx } from '../../db/client.ts';
import { committedHorizon } from '../../db/horizon.ts';
import { inTransaction } from '../../db/transaction.ts';
import { type PeriodicJob, startPeriodic, withJobLock } from '../../lib/periodic.ts';
import { resetTradeCandles, tickTradeCandles } from '../exchange/exchange.public.ts';

const JOB = 'ledger-rollup';
/** The epoch every bucket is aligned to (UTC). */
export const EPOCH = sql`TIMESTAMPTZ '1970-01-01 00:00:00+00'`;
/** Bucket widths: hours, and days as 24 hours (a calendar day would follow the session's time zone). */
export const MINUTE = sql`'1 minute'::interval`;
export const HOUR = sql`'1 hour'::interval`;
export const DAY = sql`'24 hours'::interval`;

/**
 * Minutes are kept for the hours from `MINUTES_KEPT` before the watermark on (older ones are pruned by the
 * job); readers use them from `minuteFloor` on, a day later, so a reader whose statements straddle a
 * prune still finds every minute it counts on (as long as the replicas' clocks agree within a day).
 */
const MINUTES_KEPT = sql`'3 days'::interval`;
const MINUTES_READ_MS = 2 * 24 * 3_600_000;

/** The first minute bucket the rollup keeps when its watermark is `w` (a timestamptz): a whole UTC hour. */
export function minutesKeptFrom(w: SQL): SQL {
  return sql`date_bin(${HOUR}, ${w} - ${MINUTES_KEPT}, ${EPOCH})`;
}

/**
 * The first instant (ms, a whole UTC hour) from which every hour of the rollup has its minutes, as
 * readers may count on at `nowMs` (edges and deep pages within a busy hour).
 */
export function minuteFloor(nowMs: number = Date.now()): number {
  return Math.floor((nowMs - MINUTES_READ_MS) / 3_600_000) * 3_600_000;
}

/**
 * The rollup's sums over ledger rows in scope (`t` the row alias, empty for none): n, total, issued,
 * removed, escrow_in, escrow_out, named as the columns of `ledger_rollup` (DESIGN §4's split).
 */
export function ledgerSums(t = ''): SQL {
  const c = (name: string) => sql.raw(`${t}${name}`);
  return sql`count(*) AS n, coalesce(sum(${c('amount')}), 0) AS total,
    coalesce(sum(${c('amount')}) FILTER (WHERE ${c('sender_id')} IS NULL AND NOT ${c('escrow')}), 0) AS issued,
    coalesce(sum(${c('amount')}) FILTER (WHERE ${c('recipient_id')} IS NULL AND NOT ${c('escrow')}), 0) AS removed,
    coalesce(sum(${c('amount')}) FILTER (WHERE ${c('recipient_id')} IS NULL AND ${c('escrow')}), 0) AS escrow_in,
    coalesce(sum(${c('amount')}) FILTER (WHERE ${c('sender_id')} IS NULL AND ${c('escrow')}), 0) AS escrow_out`;
}

/** Sums of rollup rows (the same names), to fold finer buckets into coarser ones. */
const ROLLUP_SUMS = sql`sum(n) AS n, sum(total) AS total, sum(issued) AS issued, sum(removed) AS removed,
  sum(escrow_in) AS escrow_in, sum(escrow_out) AS escrow_out`;

/**
 * The ledger table's storage now (read after the horizon): the position of its last row ('(block,item)',
 * from the last few blocks; '(0,0)' when they hold none) and its file node.
 */
async function ledgerHeap(db: DbOrTx): Promise<{ end: string; filenode: number }> {
  const res = await db.execute<{ end: string; filenode: string }>(sql`
    WITH size AS (SELECT pg_relation_size('bank_transactions') / current_setting('block_size')::int AS blocks)
    SELECT coalesce((SELECT max(ctid) FROM bank_transactions
                      WHERE ctid >= ('(' || greatest((SELECT blocks FROM size) - 8, 0) || ',0)')::tid),
                    ('(' || greatest((SELECT blocks FROM size) - 8, 0) || ',0)')::tid)::text AS end,
           pg_relation_filenode('bank_transactions') AS filenode`);
  return { end: res.rows[0]?.end ?? '(0,0)', filenode: Number(res.rows[0]?.filenode ?? 0) };
}

/** The select list of `ledgerCounters` (columns upd, del, reset, filenode), to read them with other values. */
export const LEDGER_COUNTERS = sql`
  pg_stat_get_tuples_updated('bank_transactions'::regclass) AS upd,
  pg_stat_get_tuples_deleted('bank_transactions'::regclass) AS del,
  pg_stat_get_db_stat_reset_time((SELECT oid FROM pg_database WHERE datname = current_database())) AS reset,
  pg_relation_filenode('bank_transactions') AS filenode`;

/**
 * Makes the next statistics read of `db` fresh: inside a transaction, the first read's snapshot would be
 * kept to its end; a statement on the pool is a transaction of its own, whose snapshot is fresh already
 * (one round trip fewer for each incremental audit).
 */
export async function freshStatistics(db: DbOrTx): Promise<void> {
  if (db instanceof PgTransaction) await db.execute(sql`SELECT pg_stat_clear_snapshot()`);
}

/**
 * The ledger table's tamper counters now (`pg_stat_user_tables`' rows updated and deleted, which the
 * append-only trigger keeps at their value; the database's statistics reset time; the storage's file
 * node), read from a fresh statistics snapshot. Read by the statistics functions behind those views,
 * costly to plan for each view (a named statement, planned once per connection).
 */
export async function ledgerCounters(
  db: DbOrTx,
): Promise<{ tupUpd: number; tupDel: number; statsReset: Date | null; filenode: number }> {
  await freshStatistics(db);
  const [r] = await queryNamed<{ upd: string; del: string; reset: string | Date | null; filenode: string }>(
    db,
    'audit_ledger_counters',
    sql`SELECT ${LEDGER_COUNTERS}`,
  );
  return {
    tupUpd: Number(r?.upd ?? 0),
    tupDel: Number(r?.del ?? 0),
    statsReset: r?.reset ? new Date(r.reset) : null,
    filenode: Number(r?.filenode ?? 0),
  };
}

/** Records `counters` as the tamper baseline the incremental audit compares with (one row, id 1). */
export async function recordAuditBaseline(db: DbOrTx, counters: Awaited<ReturnType<typeof ledgerCounters>>) {
  await db.execute(sql`
    INSERT INTO ledger_audit_baseline (id, tup_upd, tup_del, stats_reset, relfilenode, recounted_at)
    VALUES (1, ${counters.tupUpd}, ${counters.tupDel}, ${counters.statsReset?.toISOString() ?? null}::timestamptz,
            ${counters.filenode}, now())
    ON CONFLICT (id) DO UPDATE SET tup_upd = EXCLUDED.tup_upd, tup_del = EXCLUDED.tup_del,
      stats_reset = EXCLUDED.stats_reset, relfilenode = EXCLUDED.relfilenode, recounted_at = EXCLUDED.recounted_at`);
}

/**
 * Takes `seen` rows off the count of rows found stored below the watermark (the full recount vouched for
 * them); clears the first one's id when none is left.
 */
export async function clearBackdated(db: DbOrTx, seen: number): Promise<void> {
  await db.execute(sql`
    UPDATE ledger_rollup_state SET backdated = greatest(backdated - ${seen}, 0),
      backdated_id = CASE WHEN backdated - ${seen} > 0 THEN backdated_id END
    WHERE id = 1`);
}

/** Rebuilds in `tx` (which holds the job's lock): every ledger row below `h`, the state and the baseline. */
async function rebuildIn(tx: Tx, h: Date): Promise<void> {
  const heap = await ledgerHeap(tx);
  // The counters before the scan: a change during it shows as a change after the baseline.
  const counters = await ledgerCounters(tx);
  await tx.execute(sql`DELETE FROM ledger_rollup`);
  await tx.execute(sql`
    INSERT INTO ledger_rollup (grain, bucket, currency_id, category, n, total, issued, removed, escrow_in, escrow_out)
    SELECT 'hour', date_bin(${HOUR}, created_at, ${EPOCH}), currency_id, category, ${ledgerSums()}
    FROM bank_transactions WHERE created_at < ${h.toISOString()}::timestamptz
    GROUP BY 2, 3, 4`);
  await tx.execute(sql`
    INSERT INTO ledger_rollup (grain, bucket, currency_id, category, n, total, issued, removed, escrow_in, escrow_out)
    SELECT 'minute', date_bin(${MINUTE}, created_at, ${EPOCH}), currency_id, category, ${ledgerSums()}
    FROM bank_transactions
    WHERE created_at >= ${minutesKeptFrom(sql`${h.toISOString()}::timestamptz`)}
      AND created_at < ${h.toISOString()}::timestamptz
    GROUP BY 2, 3, 4`);
  await tx.execute(sql`
    INSERT INTO ledger_rollup (grain, bucket, currency_id, category, n, total, issued, removed, escrow_in, escrow_out)
    SELECT 'day', date_bin(${DAY}, bucket, ${EPOCH}), currency_id, category, ${ROLLUP_SUMS}
    FROM ledger_rollup WHERE grain = 'hour' GROUP BY 2, 3, 4`);
  await tx.execute(sql`
    INSERT INTO ledger_rollup (grain, bucket, currency_id, category, n, total, issued, removed, escrow_in, escrow_out)
    SELECT 'all', ${EPOCH}, currency_id, category, ${ROLLUP_SUMS}
    FROM ledger_rollup WHERE grain = 'day' GROUP BY 3, 4`);
  await tx.execute(sql`
    INSERT INTO ledger_rollup_state (id, watermark, heap_end, relfilenode, backdated, backdated_id, built_at)
    VALUES (1, ${h.toISOString()}::timestamptz, ${heap.end}, ${heap.filenode}, 0, NULL, now())
    ON CONFLICT (id) DO UPDATE SET watermark = EXCLUDED.watermark, heap_end = EXCLUDED.heap_end,
      relfilenode = EXCLUDED.relfilenode, backdated = 0, backdated_id = NULL, built_at = now()`);
  await recordAuditBaseline(tx, counters);
}

/**
 * Rebuilds the ledger rollup from scratch from `bank_transactions` (derived structures can be
 * made again from their source by one call): every row stamped below the committed horizon, the
 * watermark at that horizon, the backdated-row count reset, and the audit's tamper baseline taken
 * afresh; and the exchange's kept candles from `exchange_trades` (candles.queries.ts). Waits for a tick in progress (it takes the job's lock). Called by the job when the state is
 * missing, after the scale seed, and by tests. One scan of the ledger.
 */
export async function rebuildLedgerRollup(db: Db): Promise<void> {
  await inTransaction(db, async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`job:${JOB}`}))`);
    const h = await committedHorizon(tx);
    await rebuildIn(tx, h);
    await resetTradeCandles(tx);
    await tickTradeCandles(tx, h);
    // Fresh statistics: with none the planner takes a freshly filled table for a few rows, and sorts a
    // pair's every candle instead of reading the latest ones by index.
    await tx.execute(sql`ANALYZE ledger_rollup, trade_candles`);
  });
}

/** What one tick did: ledger rows and trades added, the new watermark, rows found stamped below the old one. */
export interface RollupTick {
  rows: number;
  trades: number;
  watermark: Date;
  backdated: number;
  rebuilt: boolean;
}

/** One tick in `tx` (holding the job's lock); see `tickLedgerRollup`. */
async function tickIn(tx: Tx): Promise<RollupTick> {
  // A tick reads a few rows: no JIT (the backdated check's tid range has a generic estimate of a third of
  // the ledger, which would compile it every tick).
  await tx.execute(sql`SET LOCAL jit = off`);
  // The horizon first, in its own statement: every row stamped below it is committed and visible to the
  // statements that follow (READ COMMITTED takes a fresh snapshot per statement).
  const h = await committedHorizon(tx);
  const heap = await ledgerHeap(tx);
  const state = await tx.execute<{ watermark: string | Date; heap_end: string; relfilenode: string }>(
    sql`SELECT watermark, heap_end, relfilenode FROM ledger_rollup_state WHERE id = 1 FOR UPDATE`,
  );
  const s = state.rows[0];
  const trades = await tickTradeCandles(tx, h);
  if (!s) {
    await rebuildIn(tx, h);
    await tx.execute(sql`ANALYZE ledger_rollup, trade_candles`);
    return { rows: 0, trades, watermark: h, backdated: 0, rebuilt: true };
  }
  const w = new Date(s.watermark);
  // Rows stored after the last tick's last row were written after it, so one stamped below its watermark
  // was backdated (an insert with an explicit created_at). A rewritten table renumbers its rows: then the
  // check waits for the next tick (the audit reports the rewrite).
  let backdated = 0;
  if (Number(s.relfilenode) === heap.filenode) {
    const late = await tx.execute<{ n: string; first: string | null }>(sql`
      SELECT count(*) AS n, min(id) AS first FROM bank_transactions
      WHERE ctid > ${s.heap_end}::tid AND created_at < ${w.toISOString()}::timestamptz`);
    backdated = Number(late.rows[0]?.n ?? 0);
    if (backdated > 0) {
      await tx.execute(sql`UPDATE ledger_rollup_state SET backdated = backdated + ${backdated},
        backdated_id = coalesce(backdated_id, ${late.rows[0]?.first ?? null}) WHERE id = 1`);
    }
  }
  let rows = 0;
  const watermark = h > w ? h : w;
  if (h > w) {
    const upsert = (grain: string, from: SQL) => sql`
      INSERT INTO ledger_rollup AS r (grain, bucket, currency_id, category, n, total, issued, removed, escrow_in, escrow_out)
      SELECT ${grain}, bucket, currency_id, category, n, total, issued, removed, escrow_in, escrow_out FROM ${from}
      ON CONFLICT (grain, bucket, currency_id, category) DO UPDATE SET n = r.n + EXCLUDED.n,
        total = r.total + EXCLUDED.total, issued = r.issued + EXCLUDED.issued, removed = r.removed + EXCLUDED.removed,
        escrow_in = r.escrow_in + EXCLUDED.escrow_in, escrow_out = r.escrow_out + EXCLUDED.escrow_out
      RETURNING 1`;
    const res = await tx.execute<{ rows: string }>(sql`
      WITH src AS (
        SELECT date_bin(${MINUTE}, created_at, ${EPOCH}) AS bucket, currency_id, category, ${ledgerSums()}
        FROM bank_transactions
        WHERE created_at >= ${w.toISOString()}::timestamptz AND created_at < ${h.toISOString()}::timestamptz
        GROUP BY 1, 2, 3),
      minutes AS (${upsert('minute', sql`src`)}),
      hours AS (${upsert(
        'hour',
        sql`(SELECT date_bin(${HOUR}, bucket, ${EPOCH}) AS bucket, currency_id, category, ${ROLLUP_SUMS}
             FROM src GROUP BY 1, 2, 3) h`,
      )}),
      days AS (${upsert(
        'day',
        sql`(SELECT date_bin(${DAY}, bucket, ${EPOCH}) AS bucket, currency_id, category, ${ROLLUP_SUMS}
             FROM src GROUP BY 1, 2, 3) d`,
      )}),
      alltime AS (${upsert(
        'all',
        sql`(SELECT ${EPOCH} AS bucket, currency_id, category, ${ROLLUP_SUMS} FROM src GROUP BY 2, 3) a`,
      )}),
      moved AS (
        UPDATE ledger_rollup_state SET watermark = ${h.toISOString()}::timestamptz, heap_end = ${heap.end},
          relfilenode = ${heap.filenode}
        WHERE id = 1 RETURNING 1),
      pruned AS (
        DELETE FROM ledger_rollup
        WHERE grain = 'minute' AND bucket < ${minutesKeptFrom(sql`${h.toISOString()}::timestamptz`)}
        RETURNING 1)
      SELECT coalesce((SELECT sum(n) FROM src), 0) AS rows,
             (SELECT count(*) FROM minutes) + (SELECT count(*) FROM pruned) + (SELECT count(*) FROM hours) + (SELECT count(*) FROM days) + (SELECT count(*) FROM alltime)
               + (SELECT count(*) FROM moved) AS written`);
    rows = Number(res.rows[0]?.rows ?? 0);
  } else {
    await tx.execute(sql`UPDATE ledger_rollup_state SET heap_end = ${heap.end}, relfilenode = ${heap.filenode}
      WHERE id = 1`);
  }
  return { rows, trades, watermark, backdated, rebuilt: false };
}

/**
 * One tick of the rollup job: adds the ledger rows stamped between the watermark and the committed
 * horizon (`committedHorizon`) to their minute, hour, day and all-time buckets (minutes older than three
 * days pruned) and moves the watermark there, in
 * one transaction, and the trades likewise to the kept candles (`tickTradeCandles`); rebuilds when the state is missing; counts rows found stamped below the old watermark
 * (backdated inserts, reported by the audit). Of several replicas one does it: returns `undefined` when
 * another holds the job's lock, unless `wait` (tests), which waits for it.
 */
export async function tickLedgerRollup(db: Db, opts: { wait?: boolean } = {}): Promise<RollupTick | undefined> {
  if (!opts.wait) return withJobLock(db, JOB, tickIn);
  return inTransaction(db, async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`job:${JOB}`}))`);
    return tickIn(tx);
  });
}

/** Starts the rollup job (every `everyMs`, 2 s by default) with a first tick at once; stop it on close. */
export function startLedgerRollup(db: Db, log: FastifyBaseLogger, everyMs = 2000): PeriodicJob {
  const job = startPeriodic({
    name: JOB,
    everyMs,
    log,
    tick: async () => {
      await tickLedgerRollup(db);
    },
  });
  void job.runNow();
  return job;
}
