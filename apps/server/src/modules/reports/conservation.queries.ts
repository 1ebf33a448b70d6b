/**
 * SQL of the audit's checks beyond conservation: the tripwires the incremental
 * audit reads (cheap, from the catalog and the statistics) and the full recount's comparison of the
 * ledger rollup with the ledger.
 * Reads other modules' tables: `balances` and `bank_transactions` (the ledger's: the audit checks them against the rollup and each other, in one snapshot) and `currencies` (the bank's: the tickers and precisions a stored check labels its rows with).
 */
import type { Amount } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { type DbOrTx, queryNamed } from '../../db/client.ts';
import { watermarkBefore } from '../../db/watermark.ts';
import {
  DAY,
  EPOCH,
  freshStatistics,
  HOUR,
  LEDGER_COUNTERS,
  type ledgerCounters,
  ledgerSums,
  MINUTE,
  minutesKeptFrom,
} from './rollup.queries.ts';

/** What the incremental audit reads besides the sums: the triggers, the counters and their baseline. */
export interface Tripwires {
  /** Each append-only trigger of the ledger and whether it fires (tgenabled 'O' or 'A'). */
  triggers: Array<{ name: string; enabled: boolean }>;
  now: Awaited<ReturnType<typeof ledgerCounters>>;
  baseline: { tupUpd: number; tupDel: number; statsReset: Date | null; filenode: number; recountedAt: Date } | null;
  /** The rollup's watermark (null: not built yet), rows found backdated below it and the first one's id. */
  watermark: Date | null;
  backdated: number;
  backdatedId: string | null;
}

/**
 * Reads the tripwires (a few catalog and statistics rows; no table is scanned): the counters, then the
 * triggers, the baseline and the rollup's state in one statement.
 */
export async function findTripwires(db: DbOrTx): Promise<Tripwires> {
  // A fresh statistics snapshot, then one named statement (planned once per connection, not on every call).
  await freshStatistics(db);
  const [r] = await queryNamed<{
    triggers: unknown;
    baseline: unknown;
    state: unknown;
    upd: string;
    del: string;
    reset: string | Date | null;
    filenode: string;
  }>(
    db,
    'audit_tripwires',
    sql`
    SELECT ${LEDGER_COUNTERS},
           (SELECT coalesce(json_agg(json_build_object('name', tgname, 'enabled', tgenabled) ORDER BY tgname), '[]')
              FROM pg_trigger
             WHERE tgrelid = 'bank_transactions'::regclass AND NOT tgisinternal
               AND tgfoid = 'bank_transactions_append_only'::regproc) AS triggers,
           (SELECT row_to_json(b) FROM (SELECT tup_upd, tup_del, stats_reset, relfilenode, recounted_at
              FROM ledger_audit_baseline WHERE id = 1) b) AS baseline,
           (SELECT row_to_json(s) FROM (SELECT watermark, backdated, backdated_id
              FROM ledger_rollup_state WHERE id = 1) s) AS state`,
  );
  const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
  const now = {
    tupUpd: Number(r?.upd ?? 0),
    tupDel: Number(r?.del ?? 0),
    statsReset: r?.reset ? new Date(r.reset) : null,
    filenode: Number(r?.filenode ?? 0),
  };
  const triggers = json<Array<{ name: string; enabled: string }>>(r?.triggers ?? '[]');
  const b = json<{
    tup_upd: number | string;
    tup_del: number | string;
    stats_reset: string | null;
    relfilenode: number | string;
    recounted_at: string;
  } | null>(r?.baseline ?? null);
  const s = json<{ watermark: string; backdated: number | string; backdated_id: string | null } | null>(
    r?.state ?? null,
  );
  return {
    triggers: triggers.map((t) => ({ name: t.name, enabled: t.enabled === 'O' || t.enabled === 'A' })),
    now,
    baseline: b
      ? {
          tupUpd: Number(b.tup_upd),
          tupDel: Number(b.tup_del),
          statsReset: b.stats_reset ? new Date(b.stats_reset) : null,
          filenode: Number(b.relfilenode),
          recountedAt: new Date(b.recounted_at),
        }
      : null,
    watermark: s ? new Date(s.watermark) : null,
    backdated: Number(s?.backdated ?? 0),
    backdatedId: s?.backdated_id ?? null,
  };
}

/** A bucket where the rollup and the ledger disagree (amounts as NUMERIC text; null: no row there). */
export interface RollupMismatch {
  grain: string;
  bucket: Date;
  currencyId: number;
  category: number;
  keptCount: number | null;
  ledgerCount: number | null;
  keptTotal: string | null;
  ledgerTotal: string | null;
}

/**
 * The full recount's check of the rollup (one scan of the ledger): every (grain, bucket, currency,
 * category) of the rollup against the same sums of the ledger rows stamped below the watermark (minutes
 * from where the rollup keeps them, `minutesKeptFrom`), in the caller's snapshot. Returns the number of buckets that differ and up to `sample` of them, oldest first;
 * `built` false when there is no rollup yet (nothing compared).
 */
export async function compareRollup(
  db: DbOrTx,
  sample = 5,
): Promise<{ built: boolean; mismatches: number; sample: RollupMismatch[] }> {
  const built = await db.execute<{ w: string | Date }>(
    sql`SELECT watermark AS w FROM ledger_rollup_state WHERE id = 1`,
  );
  const w = built.rows[0]?.w;
  if (w === undefined) return { built: false, mismatches: 0, sample: [] };
  const wAt = new Date(w).toISOString();
  const cols = sql`n, total, issued, removed, escrow_in, escrow_out`;
  const sums = sql`sum(n) AS n, sum(total) AS total, sum(issued) AS issued, sum(removed) AS removed,
    sum(escrow_in) AS escrow_in, sum(escrow_out) AS escrow_out`;
  const res = await db.execute<{
    grain: string;
    bucket: string | Date;
    currency_id: number;
    category: number;
    kn: string | null;
    ln: string | null;
    kt: string | null;
    lt: string | null;
    mismatches: string;
  }>(sql`
    WITH hours AS (
      SELECT date_bin(${HOUR}, created_at, ${EPOCH}) AS bucket, currency_id, category, ${ledgerSums()}
      FROM bank_transactions WHERE created_at < ${wAt}::timestamptz GROUP BY 1, 2, 3),
    led AS (
      SELECT 'minute' AS grain, date_bin(${MINUTE}, created_at, ${EPOCH}) AS bucket, currency_id, category, ${ledgerSums()}
      FROM bank_transactions
      WHERE created_at >= ${minutesKeptFrom(sql`${wAt}::timestamptz`)} AND created_at < ${wAt}::timestamptz
      GROUP BY 2, 3, 4
      UNION ALL
      SELECT 'hour', bucket, currency_id, category, ${cols} FROM hours
      UNION ALL
      SELECT 'day', date_bin(${DAY}, bucket, ${EPOCH}), currency_id, category, ${sums} FROM hours GROUP BY 2, 3, 4
      UNION ALL
      SELECT 'all', ${EPOCH}, currency_id, category, ${sums} FROM hours GROUP BY 3, 4),
    diff AS (
      SELECT grain, bucket, currency_id, category, k.n AS kn, l.n AS ln, k.total AS kt, l.total AS lt
      FROM ledger_rollup k FULL JOIN led l USING (grain, bucket, currency_id, category)
      WHERE (k.n, k.total, k.issued, k.removed, k.escrow_in, k.escrow_out)
        IS DISTINCT FROM (l.n, l.total, l.issued, l.removed, l.escrow_in, l.escrow_out))
    SELECT *, count(*) OVER () AS mismatches FROM diff ORDER BY bucket, grain, currency_id, category LIMIT ${sample}`);
  return {
    built: true,
    mismatches: Number(res.rows[0]?.mismatches ?? 0),
    sample: res.rows.map((r) => ({
      grain: r.grain,
      bucket: new Date(r.bucket),
      currencyId: Number(r.currency_id),
      category: Number(r.category),
      keptCount: r.kn === null ? null : Number(r.kn),
      ledgerCount: r.ln === null ? null : Number(r.ln),
      keptTotal: r.kt,
      ledgerTotal: r.lt,
    })),
  };
}

/**
 * The full recount's check of every balance against its ledger rows (one scan of the ledger and one of
 * the balances): the (member, currency) pairs whose balance differs from the sum of the rows it received
 * less the rows it sent, and the first of them. Finds what conservation cannot: money moved between
 * balances without a ledger row.
 */
export async function compareBalances(db: DbOrTx): Promise<{
  mismatches: number;
  first: { userId: string; currencyId: number; balance: string; ledger: string } | null;
}> {
  const res = await db.execute<{
    user_id: string;
    currency_id: number;
    balance: string;
    ledger: string;
    n: string;
  }>(sql`
    WITH led AS (
      SELECT u, c, sum(d) AS total FROM (
        SELECT recipient_id AS u, currency_id AS c, amount AS d FROM bank_transactions WHERE recipient_id IS NOT NULL
        UNION ALL
        SELECT sender_id, currency_id, -amount FROM bank_transactions WHERE sender_id IS NOT NULL) x
      GROUP BY u, c),
    diff AS (
      SELECT coalesce(b.user_id, l.u) AS user_id, coalesce(b.currency_id, l.c) AS currency_id,
             coalesce(b.amount, 0) AS balance, coalesce(l.total, 0) AS ledger
      FROM balances b FULL JOIN led l ON l.u = b.user_id AND l.c = b.currency_id
      WHERE coalesce(b.amount, 0) <> coalesce(l.total, 0))
    SELECT user_id, currency_id, balance::text AS balance, ledger::text AS ledger, count(*) OVER () AS n
    FROM diff ORDER BY user_id, currency_id LIMIT 1`);
  const r = res.rows[0];
  return {
    mismatches: Number(r?.n ?? 0),
    first: r ? { userId: r.user_id, currencyId: Number(r.currency_id), balance: r.balance, ledger: r.ledger } : null,
  };
}

/** The rollup's watermark as SQL (-infinity before it is built), read in the statement's snapshot. */
const WATERMARK = sql`coalesce((SELECT watermark FROM ledger_rollup_state WHERE id = 1), '-infinity'::timestamptz)`;

/**
 * How many ledger rows the caller's snapshot holds, from the rollup's all-time rows plus the rows from
 * its watermark on (index `bank_tx_created`; the rows of the last rollup tick, a few seconds' worth), in
 * one statement. Before the rollup is built it counts the whole ledger.
 */
export async function ledgerRowCount(db: DbOrTx): Promise<number> {
  const known = await watermarkBefore(db, sql`ledger_rollup_state`);
  const res = await db.execute<{ n: string }>(sql`SELECT ${ledgerRowsSql(known)} AS n`);
  return Number(res.rows[0]?.n ?? 0);
}

/**
 * The ledger row count's expression (see `ledgerRowCount`); `known`: a watermark read before (ISO text or
 * '-infinity'), at or below the statement's, so the planner sees the tail's range is small.
 */
function ledgerRowsSql(known: string) {
  return sql`((SELECT coalesce(sum(n), 0) FROM ledger_rollup
                WHERE grain = 'all' AND EXISTS (SELECT 1 FROM ledger_rollup_state WHERE id = 1))
            + (SELECT count(*) FROM bank_transactions
                WHERE created_at >= ${known}::timestamptz AND created_at >= ${WATERMARK}))`;
}

/** One currency of a conservation check: amounts in 10^-9 units, `negative` the count of negative balances. */
export interface CheckedCurrency {
  currencyId: number;
  balances: Amount;
  issued: Amount;
  removed: Amount;
  escrow: Amount;
  negative: number;
}

/** A conservation check taken at one snapshot (see table `audit_check`). */
export interface ConservationCheck {
  /** The snapshot's time (its transaction's start). */
  checkedAt: Date;
  /** The rollup watermark it read the ledger's totals up to (null: not built). */
  watermark: Date | null;
  /** Ledger rows in the snapshot. */
  ledgerRows: number;
  full: boolean;
  currencies: CheckedCurrency[];
}

/**
 * Stores `check` as the latest (row id 1) unless a check taken later is stored already (replicas and
 * live audits may race: the latest snapshot wins). Amounts as integer text in 10^-9 units.
 */
export async function storeCheck(db: DbOrTx, check: ConservationCheck): Promise<void> {
  const currencies = JSON.stringify(
    check.currencies.map((c) => ({
      currencyId: c.currencyId,
      balances: c.balances.toString(),
      issued: c.issued.toString(),
      removed: c.removed.toString(),
      escrow: c.escrow.toString(),
      negative: c.negative,
    })),
  );
  await db.execute(sql`
    INSERT INTO audit_check AS a (id, checked_at, watermark, ledger_rows, "full", currencies)
    VALUES (1, ${check.checkedAt.toISOString()}::timestamptz, ${check.watermark?.toISOString() ?? null}::timestamptz,
            ${check.ledgerRows}, ${check.full}, ${currencies}::jsonb)
    ON CONFLICT (id) DO UPDATE SET checked_at = EXCLUDED.checked_at, watermark = EXCLUDED.watermark,
      ledger_rows = EXCLUDED.ledger_rows, "full" = EXCLUDED."full", currencies = EXCLUDED.currencies
    WHERE a.checked_at <= EXCLUDED.checked_at`);
}

/** What the incremental audit reads to decide whether the stored check still holds (`findCheckInputs`). */
export interface CheckInputs {
  /** The latest stored check and its age in seconds by the database's clock; null: none stored yet. */
  stored: { check: ConservationCheck; ageSeconds: number } | null;
  /** Every currency's id, ticker and precision, by id. */
  labels: Array<{ currencyId: number; ticker: string; precision: number }>;
  /** Ledger rows now (`ledgerRowCount`). */
  ledgerRows: number;
}

/**
 * Reads in one statement the latest stored check, the currencies and the ledger's row count now
 * (O(currencies) and the rollup's tail, index `bank_tx_created`). `known`: the rollup's watermark read
 * before (null: not built), at or below the statement's own.
 */
export async function findCheckInputs(db: DbOrTx, known: Date | null): Promise<CheckInputs> {
  const [r] = await queryNamed<{ stored: unknown; labels: unknown; ledger_rows: string }>(
    db,
    'audit_check_inputs',
    sql`
    SELECT (SELECT row_to_json(a) FROM (
              SELECT checked_at, watermark, ledger_rows, "full", currencies,
                     extract(epoch FROM now() - checked_at)::float8 AS age
              FROM audit_check WHERE id = 1) a) AS stored,
           (SELECT coalesce(json_agg(json_build_object('currencyId', currency_id, 'ticker', ticker,
                     'precision', precision) ORDER BY currency_id), '[]') FROM currencies) AS labels,
           ${ledgerRowsSql(known?.toISOString() ?? '-infinity')} AS ledger_rows`,
  );
  const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
  const a = json<{
    checked_at: string;
    watermark: string | null;
    ledger_rows: number | string;
    full: boolean;
    currencies: Array<{
      currencyId: number;
      balances: string;
      issued: string;
      removed: string;
      escrow: string;
      negative: number;
    }>;
    age: number;
  } | null>(r?.stored ?? null);
  const labels = json<Array<{ currencyId: number; ticker: string; precision: number }>>(r?.labels ?? '[]');
  return {
    stored: a
      ? {
          ageSeconds: Number(a.age),
          check: {
            checkedAt: new Date(a.checked_at),
            watermark: a.watermark ? new Date(a.watermark) : null,
            ledgerRows: Number(a.ledger_rows),
            full: Boolean(a.full),
            currencies: a.currencies.map((c) => ({
              currencyId: Number(c.currencyId),
              balances: BigInt(c.balances) as Amount,
              issued: BigInt(c.issued) as Amount,
              removed: BigInt(c.removed) as Amount,
              escrow: BigInt(c.escrow) as Amount,
              negative: Number(c.negative),
            })),
          },
        }
      : null,
    labels: labels.map((l) => ({ currencyId: Number(l.currencyId), ticker: l.ticker, precision: Number(l.precision) })),
    ledgerRows: Number(r?.ledger_rows ?? 0),
  };
}
