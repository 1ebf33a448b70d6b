/**
 * SQL of the exchange's pairs (SPEC §3, DESIGN §5): the pair lock, reads with their currencies, writes.
 * Reads other modules' tables: `currencies` (a pair's tickers and precisions) and `users` (its fee collector), joined in the pair's one read.
 */
import { type Amount, formatAmount, fromNumeric } from '@starlight/shared';
import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryNamed } from '../../db/client.ts';
import { pgArray, sqlLiteral } from '../../db/pg-array.ts';
import { exchangePairs } from '../../db/schema/index.ts';
import { newObjectId } from '../../lib/ids.ts';

/** Namespace of the exchange's advisory locks (the first key of the two-key form). */
const PAIR_LOCK_NAMESPACE = 0x5eac;

/**
 * Takes the pair's transaction-scoped advisory lock (DESIGN §5): every change to a pair's orders runs
 * under it, so matching, cancels and payouts on one pair happen one at a time on every replica.
 */
export async function lockPair(tx: DbOrTx, pairId: string): Promise<void> {
  await lockPairs(tx, [pairId]);
}

/**
 * Takes the advisory locks of several pairs (`lockPair`'s) in one statement, in ascending order of their
 * keys: two transactions that each take several wait on each other in no cycle.
 */
export async function lockPairs(tx: DbOrTx, pairIds: readonly string[]): Promise<void> {
  await queryNamed(
    tx,
    'exchange_lock_pairs',
    sql`SELECT pg_advisory_xact_lock(${PAIR_LOCK_NAMESPACE}, k)
        FROM (SELECT DISTINCT hashtext(id) AS k FROM unnest(${pgArray(pairIds)}::text[]) AS id ORDER BY k) s`,
  );
}

/**
 * `lockPairs` as SQL text, the ids written as a literal (`sqlLiteral`), for the first round trip of
 * a batch's transaction (`TransactionOptions.first`): the same locks, in the same order.
 */
export function lockPairsText(pairIds: readonly string[]): string {
  return `SELECT pg_advisory_xact_lock(${PAIR_LOCK_NAMESPACE}, k)
    FROM (SELECT DISTINCT hashtext(id) AS k FROM unnest(${sqlLiteral(pgArray(pairIds))}::text[]) AS id ORDER BY k) s`;
}

/** A pair with what the exchange needs of its currencies and the fee collector's nickname. */
export interface PairRow {
  id: string;
  buyCurrency: number;
  sellCurrency: number;
  canBuy: boolean;
  canSell: boolean;
  visible: boolean;
  frozen: boolean;
  frozenNote: string;
  /** The larger of the two fees (SPEC §3's one `fee`). */
  fee: Amount;
  /** Fraction of the proceeds the resting order's side pays (DESIGN §11.4). */
  makerFee: Amount;
  /** Fraction of the proceeds the incoming order's side pays (DESIGN §11.4). */
  takerFee: Amount;
  feeCollectorId: string | null;
  feeCollector: string;
  createdAt: Date;
  buyName: string;
  buyTicker: string;
  buyPrecision: number;
  buyFrozen: boolean;
  buyFrozenNote: string;
  sellName: string;
  sellTicker: string;
  sellPrecision: number;
  sellFrozen: boolean;
  sellFrozenNote: string;
}

/** A pair row as `pairRows` selects it. */
export type PairSqlRow = {
  id: string;
  buy_currency: number;
  sell_currency: number;
  can_buy: boolean;
  can_sell: boolean;
  visible: boolean;
  frozen: boolean;
  frozen_note: string;
  fee: string;
  maker_fee: string;
  taker_fee: string;
  fee_collector_id: string | null;
  fee_collector: string | null;
  created_at: string | Date;
  buy_name: string;
  buy_ticker: string;
  buy_precision: number;
  buy_frozen: boolean;
  buy_frozen_note: string;
  sell_name: string;
  sell_ticker: string;
  sell_precision: number;
  sell_frozen: boolean;
  sell_frozen_note: string;
};

/** Live pairs matching `where` with their currencies and collector: the columns of `PairSqlRow`. */
export function pairRows(where: SQL): SQL {
  return sql`
    SELECT p.id, p.buy_currency, p.sell_currency, p.can_buy, p.can_sell, p.visible, p.frozen, p.frozen_note,
           p.fee, p.maker_fee, p.taker_fee, p.fee_collector_id, u.nickname AS fee_collector, p.created_at,
           bc.name AS buy_name, bc.ticker AS buy_ticker, bc.precision AS buy_precision,
           bc.is_frozen AS buy_frozen, bc.frozen_note AS buy_frozen_note,
           sc.name AS sell_name, sc.ticker AS sell_ticker, sc.precision AS sell_precision,
           sc.is_frozen AS sell_frozen, sc.frozen_note AS sell_frozen_note
    FROM exchange_pairs p
    JOIN currencies bc ON bc.currency_id = p.buy_currency
    JOIN currencies sc ON sc.currency_id = p.sell_currency
    LEFT JOIN users u ON u.id = p.fee_collector_id
    WHERE p.deleted_at IS NULL AND ${where}`;
}

function selectPairs(where: SQL): SQL {
  return sql`${pairRows(where)} ORDER BY p.created_at, p.id`;
}

/** Maps a `pairRows` row to a `PairRow` (amounts as Amounts). */
export function toPairRow(r: PairSqlRow): PairRow {
  return {
    id: r.id,
    buyCurrency: Number(r.buy_currency),
    sellCurrency: Number(r.sell_currency),
    canBuy: r.can_buy,
    canSell: r.can_sell,
    visible: r.visible,
    frozen: r.frozen,
    frozenNote: r.frozen_note,
    fee: fromNumeric(String(r.fee)),
    makerFee: fromNumeric(String(r.maker_fee)),
    takerFee: fromNumeric(String(r.taker_fee)),
    feeCollectorId: r.fee_collector_id,
    feeCollector: r.fee_collector ?? '',
    createdAt: new Date(r.created_at),
    buyName: r.buy_name,
    buyTicker: r.buy_ticker,
    buyPrecision: Number(r.buy_precision),
    buyFrozen: r.buy_frozen,
    buyFrozenNote: r.buy_frozen_note,
    sellName: r.sell_name,
    sellTicker: r.sell_ticker,
    sellPrecision: Number(r.sell_precision),
    sellFrozen: r.sell_frozen,
    sellFrozenNote: r.sell_frozen_note,
  };
}

/** One pair that is not deleted, or null. */
export async function findPair(db: DbOrTx, pairId: string): Promise<PairRow | null> {
  const res = await db.execute<PairSqlRow>(selectPairs(sql`p.id = ${pairId}`));
  const row = res.rows[0];
  return row ? toPairRow(row) : null;
}

/** Every pair that is not deleted, oldest first; hidden ones only when `includeHidden`. */
export async function findPairs(db: DbOrTx, includeHidden: boolean): Promise<PairRow[]> {
  // Named statements without parameters: planned once per connection (planning was most of the read).
  const rows = includeHidden
    ? await queryNamed<PairSqlRow>(db, 'exchange_pairs_all', selectPairs(sql`true`))
    : await queryNamed<PairSqlRow>(db, 'exchange_pairs_visible', selectPairs(sql`p.visible`));
  return rows.map(toPairRow);
}

/** True when a live pair already trades `buyCurrency` against `sellCurrency`. */
export async function pairExists(db: DbOrTx, buyCurrency: number, sellCurrency: number): Promise<boolean> {
  const rows = await db
    .select({ id: exchangePairs.id })
    .from(exchangePairs)
    .where(
      and(
        eq(exchangePairs.buyCurrency, buyCurrency),
        eq(exchangePairs.sellCurrency, sellCurrency),
        isNull(exchangePairs.deletedAt),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** The columns a pair is created or modified with (`fee`: the larger of the two fees, set beside them). */
export interface PairFields {
  canBuy?: boolean;
  canSell?: boolean;
  visible?: boolean;
  frozen?: boolean;
  frozenNote?: string;
  fee?: Amount;
  makerFee?: Amount;
  takerFee?: Amount;
  feeCollectorId?: string | null;
}

function pairColumns(f: PairFields): Partial<typeof exchangePairs.$inferInsert> {
  const out: Partial<typeof exchangePairs.$inferInsert> = {};
  if (f.canBuy !== undefined) out.canBuy = f.canBuy;
  if (f.canSell !== undefined) out.canSell = f.canSell;
  if (f.visible !== undefined) out.visible = f.visible;
  if (f.frozen !== undefined) out.frozen = f.frozen;
  if (f.frozenNote !== undefined) out.frozenNote = f.frozenNote;
  if (f.fee !== undefined) out.fee = formatAmount(f.fee);
  if (f.makerFee !== undefined) out.makerFee = formatAmount(f.makerFee);
  if (f.takerFee !== undefined) out.takerFee = formatAmount(f.takerFee);
  if (f.feeCollectorId !== undefined) out.feeCollectorId = f.feeCollectorId;
  return out;
}

/** Inserts a pair and returns its id. */
export async function insertPair(
  db: DbOrTx,
  row: PairFields & { buyCurrency: number; sellCurrency: number },
): Promise<string> {
  const id = newObjectId();
  await db
    .insert(exchangePairs)
    .values({ ...pairColumns(row), id, buyCurrency: row.buyCurrency, sellCurrency: row.sellCurrency });
  return id;
}

/** Changes the given columns of a live pair. */
export async function updatePair(db: DbOrTx, pairId: string, fields: PairFields): Promise<void> {
  await db
    .update(exchangePairs)
    .set({ ...pairColumns(fields), updatedAt: new Date() })
    .where(and(eq(exchangePairs.id, pairId), isNull(exchangePairs.deletedAt)));
}

/** Marks a pair deleted (its row stays for the order history). */
export async function markPairDeleted(db: DbOrTx, pairId: string): Promise<void> {
  await db
    .update(exchangePairs)
    .set({ deletedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(exchangePairs.id, pairId), isNull(exchangePairs.deletedAt)));
}
