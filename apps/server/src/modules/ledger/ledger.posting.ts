/**
 * The ledger (DESIGN §4, STYLE layout): the only code that changes a balance or writes
 * `bank_transactions`. Every other module posts its movements here, inside its own transaction. The
 * balance protocol's second half: `ledger.balances.ts` locks and reads first, this posts.
 * Reads other modules' tables: `currencies` (the bank's: a posting that reads a balance back shows it at its currency's precision, in the same statement that writes the rows).
 */
import { AppError, formatAmount } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryNamed } from '../../db/client.ts';
import { sqlErrorOf } from '../../db/errors.ts';
import { pgArray } from '../../db/pg-array.ts';
import { commitBehind } from '../../db/transaction.ts';
import { newObjectId } from '../../lib/ids.ts';
import type { LiveChanges } from '../../lib/live-changes.ts';
import { ledgerPostings, ledgerRows } from '../../lib/metrics.ts';
import { balanceKey, byLockOrder } from './ledger.balances.ts';
import type { Entry } from './ledger.entry.ts';

/** PostgreSQL's check_violation on `balances_amount_nonnegative`: someone would go below zero. */
function isInsufficientFunds(err: unknown): boolean {
  const { code, constraint } = sqlErrorOf(err);
  return code === '23514' && constraint === 'balances_amount_nonnegative';
}

/** Balance deltas of `entries` per (user, currency), in the global lock order: user id, then currency id. */
function sortedDeltas(entries: readonly Entry[]): Array<{ userId: string; currencyId: number; delta: bigint }> {
  const deltas = new Map<string, { userId: string; currencyId: number; delta: bigint }>();
  const touch = (userId: string | null, currencyId: number, delta: bigint) => {
    if (userId === null) return;
    const key = balanceKey(userId, currencyId);
    const d = deltas.get(key) ?? { userId, currencyId, delta: 0n };
    d.delta += delta;
    deltas.set(key, d);
  };
  for (const e of entries) {
    if (e.amount <= 0n) throw new Error('Ledger entries carry a positive amount');
    // Every row changes a balance, whose row references its user and currency (migration 0034).
    if (e.senderId === null && e.recipientId === null) throw new Error('Ledger entries name a sender or a recipient');
    touch(e.senderId, e.currencyId, -e.amount);
    touch(e.recipientId, e.currencyId, e.amount);
  }
  return [...deltas.values()].sort(byLockOrder);
}

/**
 * The CTEs that post `entries` in one statement (`ok`, `led`, `up`): the SQL text is the same for
 * any entries (they travel as array parameters), so it can be a named prepared statement.
 * - `ok`: false when a debit hits a (user, currency) with no balance row: that member holds nothing
 *   of it. Balance rows are never deleted, so what the statement's snapshot sees stays true; nothing is
 *   written then, and the statement fails (`statement_refuse_unless`, migration 0035).
 * - `up`: one upsert applies every balance change, rows locked in user id, then currency id order
 *   (so concurrent posts cannot deadlock). CHECK constraints are evaluated on the proposed row before
 *   ON CONFLICT, so the proposed row carries greatest(delta, 0) and the real delta is applied in DO
 *   UPDATE, where `balances_amount_nonnegative` refuses an overdraft and fails the whole statement.
 * - `led`: the ledger rows, in the same statement, so they cannot exist without the balance change.
 * User ids travel as `bpchar[]`, the type of `balances.user_id`, so `ok` and the upsert use the primary
 * key (as `text[]` they scanned every holder of the currency).
 */
function postingCtes(entries: readonly Entry[]): SQL {
  const sorted = sortedDeltas(entries);
  const col = (f: (e: Entry) => string | number | boolean | null) => pgArray(entries.map(f));
  return sql`
    WITH v(u, c, d, n) AS (
      SELECT * FROM unnest(
        ${pgArray(sorted.map((s) => s.userId))}::bpchar[],
        ${pgArray(sorted.map((s) => s.currencyId))}::int[],
        ${pgArray(sorted.map((s) => formatAmount(s.delta)))}::numeric[]
      ) WITH ORDINALITY),
    ok AS (
      SELECT NOT EXISTS (
        SELECT 1 FROM v WHERE v.d < 0
          AND NOT EXISTS (SELECT 1 FROM balances x WHERE x.user_id = v.u AND x.currency_id = v.c)) AS ok),
    led AS (
      INSERT INTO bank_transactions
        (id, category, currency_id, amount, executor_id, sender_id, recipient_id, escrow, note, reference)
      SELECT * FROM unnest(
        ${col(() => newObjectId())}::text[],
        ${col((e) => e.category)}::int[],
        ${col((e) => e.currencyId)}::int[],
        ${col((e) => formatAmount(e.amount))}::numeric[],
        ${col((e) => e.executorId)}::text[],
        ${col((e) => e.senderId)}::text[],
        ${col((e) => e.recipientId)}::text[],
        ${col((e) => e.escrow ?? false)}::bool[],
        ${col((e) => e.note ?? '')}::text[],
        ${col((e) => e.reference ?? null)}::text[]
      ) WHERE (SELECT ok FROM ok)
      RETURNING 1),
    up AS (
      INSERT INTO balances AS b (user_id, currency_id, amount)
      SELECT u, c, greatest(d, 0) FROM v WHERE (SELECT ok FROM ok) ORDER BY n
      ON CONFLICT (user_id, currency_id) DO UPDATE
        SET amount = b.amount + (SELECT v.d FROM v WHERE v.u = EXCLUDED.user_id AND v.c = EXCLUDED.currency_id)
      RETURNING user_id, currency_id, amount)`;
}

/** The caller's part of a posting statement (see `postEntries`). */
export interface PostAlong {
  /** Names the prepared statement: same name, same SQL. */
  name: string;
  /** Continues the WITH list after the ledger's CTEs (`name AS (...)`, comma-separated). */
  ctes?: SQL;
  /** Columns added to the statement's one row. They may read `balancesAfterPosting`. */
  columns: SQL;
}

/**
 * A member's non-zero balances as they are after the posting of the same statement, as a JSON array of
 * `{currencyId, amount, precision}` (amount as numeric text, precision the currency's) by currency id: the rows the post wrote (new ones
 * included) and the member's other rows as the statement's snapshot saw them. `userId` is an SQL
 * expression of the member's id (a column of the caller's query). Only inside `PostAlong.columns`.
 */
export function balancesAfterPosting(userId: SQL): SQL {
  return sql`(SELECT json_agg(json_build_object('currencyId', x.currency_id, 'amount', x.amount::text,
                                                'precision', c.precision)
                              ORDER BY x.currency_id)
      FROM (SELECT p.currency_id, p.amount FROM up p WHERE p.user_id = ${userId}
            UNION ALL
            SELECT b.currency_id, b.amount FROM balances b
             WHERE b.user_id = ${userId} AND NOT EXISTS (
               SELECT 1 FROM up p WHERE p.user_id = b.user_id AND p.currency_id = b.currency_id)) x
      JOIN currencies c ON c.currency_id = x.currency_id
     WHERE x.amount > 0)`;
}

/**
 * Posts `entries` (DESIGN §4) in ONE statement: the ledger rows and every balance change (see
 * `postingCtes`), and the caller's own writes and reads `along` (the exchange's orders and trades, a
 * transfer's sender read back), so a whole business operation costs one round trip (DESIGN §9). Run it
 * in the caller's transaction, or alone on the pool as one atomic statement. Returns the statement's row:
 * the caller's columns, beside `ok` (none without `along`; nothing runs then for no entries).
 * Every sender, recipient and executor of `entries` is named in `changes` once the statement succeeds
 * (`LiveChanges.touchParties`: live balances, history pages and their kept totals); null only where no
 * page can be open yet (the seed).
 * Balance changes are netted per (user, currency) before they apply, so a caller whose entries debit and
 * credit one balance must check that the debit alone was covered (`lockBalances` first, as batches do).
 * Throws AppError CONFLICT `Insufficient funds` when a balance would fall below zero or a debit hits a
 * balance that has no row: nothing of the statement is written then, and AppError rolls the caller's
 * transaction back.
 */
export async function postEntries<R extends Record<string, unknown> = Record<string, never>>(
  db: DbOrTx,
  entries: readonly Entry[],
  changes: LiveChanges | null,
  along?: PostAlong,
): Promise<R> {
  if (!along && entries.length === 0) return {} as R;
  const name = along?.name ?? 'ledger_post';
  // A debit of a balance with no row fails the statement (migration 0035), as an overdraft does.
  const query = sql`${postingCtes(entries)}${along?.ctes ? sql`, ${along.ctes}` : sql``}
      SELECT statement_refuse_unless((SELECT ok FROM ok), 'check_violation', 'balances_amount_nonnegative',
                                     'a debit of a balance that has no row') AS ok${along ? sql`, ${along.columns}` : sql``}`;
  let row: R | undefined;
  try {
    const posted = queryNamed<R>(db, name, query);
    // In a batch whose last statement this is, its COMMIT goes right behind it (`commitBehindLast`).
    commitBehind(db);
    [row] = await posted;
  } catch (err) {
    if (isInsufficientFunds(err)) throw new AppError('CONFLICT', 'Insufficient funds');
    throw err;
  }
  if (!row) throw new Error('The posting statement returned no row');
  changes?.touchParties(entries);
  ledgerPostings.inc();
  ledgerRows.inc(entries.length);
  return row;
}
