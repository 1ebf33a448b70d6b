/**
 * SQL of the ledger's CSV exports (DESIGN §11.6): the transaction lists' matches in keyset pages, newest
 * first (ties by id), each page the rows before the last one's `(created_at, id)`: every branch of the
 * list's match (`ledgerMatch`) is one ordered range of its index from the cursor on, so a page costs the
 * same at the end of a million rows as at the start (no OFFSET).
 * Reads other modules' tables: `bank_transactions` (the ledger's: these are its exports), `users` (the nicknames each row shows) and `currencies` (the bank's: each row's ticker and precision).
 */
import { formatAtPrecision, fromNumeric } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryPlanned } from '../../db/client.ts';
import { pageSize } from '../../db/paging.ts';
import { joinedById, type LedgerRow } from './ledger-rows.queries.ts';

/** A ledger row as the CSV shows it; `at` is the row's exact time as PostgreSQL's text (the cursor). */
export interface ExportedTx {
  id: string;
  at: string;
  createdAt: string;
  category: number;
  ticker: string;
  amount: string;
  executor: string | null;
  sender: string | null;
  recipient: string | null;
  note: string;
  reference: string | null;
}

/**
 * Up to `limit` rows of the match `{branches, where}` (from `ledgerMatch`) after the row `after` (null: from
 * the newest), newest first. Amounts are decimal strings at the currency's precision, times ISO UTC.
 */
export async function findTransactionsAfter(
  db: DbOrTx,
  match: { branches: readonly SQL[]; where: readonly SQL[] },
  after: Pick<ExportedTx, 'id' | 'at'> | null,
  limit: number,
): Promise<ExportedTx[]> {
  const cursor = after === null ? [] : [sql`(t.created_at, t.id) < (${after.at}::timestamptz, ${after.id}::bpchar)`];
  const ids = sql.join(
    match.branches.map(
      (b) => sql`(SELECT t.id, t.created_at FROM bank_transactions t
                  WHERE ${sql.join([b, ...match.where, ...cursor], sql` AND `)}
                  ORDER BY t.created_at DESC, t.id DESC LIMIT ${pageSize(limit)})`,
    ),
    sql` UNION ALL `,
  );
  const rows = await queryPlanned<LedgerRow & { at: string; ticker: string }>(
    db,
    sql`
    SELECT t.id, t.created_at::text AS at, t.created_at, t.category, c.ticker, c.precision, t.amount, t.note, t.reference,
           e.nickname AS executor, s.nickname AS sender, r.nickname AS recipient
    ${joinedById(sql`SELECT id, created_at FROM (${ids}) b ORDER BY created_at DESC, id DESC LIMIT ${pageSize(limit)}`)}`,
  );
  return rows.map((r) => ({
    id: r.id,
    at: r.at,
    createdAt: new Date(r.created_at).toISOString(),
    category: Number(r.category),
    ticker: r.ticker,
    amount: formatAtPrecision(fromNumeric(String(r.amount)), Number(r.precision)),
    executor: r.executor,
    sender: r.sender,
    recipient: r.recipient,
    note: r.note,
    reference: r.reference,
  }));
}
