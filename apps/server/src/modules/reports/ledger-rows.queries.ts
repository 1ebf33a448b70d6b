/**
 * SQL of a page of ledger rows by id, as the transaction lists show them (SPEC §2 Tnx Logs, §3 the member's
 * transaction log; DESIGN §3's `Transaction`). Used by transactions-list.queries.ts.
 * Reads other modules' tables: `bank_transactions` (the ledger's: these are its lists), `users` (the nicknames each row shows) and `currencies` (the bank's: each row's precision).
 */
import { formatAtPrecision, fromNumeric, type Transaction } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryPlanned } from '../../db/client.ts';

/** A ledger row of a page as `joinedById` reads it (amount as numeric text). */
export type LedgerRow = {
  id: string;
  created_at: string | Date;
  category: number;
  currency_id: number;
  precision: number;
  amount: string;
  note: string;
  reference: string | null;
  executor: string | null;
  sender: string | null;
  recipient: string | null;
};

/**
 * The FROM to ORDER BY of the ledger rows `pageIds` names (a statement of `id, created_at` rows): each row
 * `t` with its currency `c` and its parties `e` (executor), `s` (sender) and `r` (recipient), newest first
 * (ties by id).
 */
export function joinedById(pageIds: SQL): SQL {
  return sql`FROM (${pageIds}) p
    JOIN bank_transactions t ON t.id = p.id
    JOIN currencies c ON c.currency_id = t.currency_id
    LEFT JOIN users e ON e.id = t.executor_id
    LEFT JOIN users s ON s.id = t.sender_id
    LEFT JOIN users r ON r.id = t.recipient_id
    ORDER BY p.created_at DESC, p.id DESC`;
}

const party = (n: string | null) => (n === null ? null : { nickname: n });

/**
 * The ledger rows `pageIds` names (a statement of `id, created_at` rows), newest first (ties by id), each with
 * its parties' nicknames and its amount at its currency's precision, in the page's one statement.
 */
export async function readLedgerRows(q: DbOrTx, pageIds: SQL): Promise<Transaction[]> {
  const rows = await queryPlanned<LedgerRow>(
    q,
    sql`
      SELECT t.id, t.created_at, t.category, t.currency_id, c.precision, t.amount, t.note, t.reference,
             e.nickname AS executor, s.nickname AS sender, r.nickname AS recipient
      ${joinedById(pageIds)}`,
  );
  return rows.map((r) => ({
    _id: r.id,
    createdAt: new Date(r.created_at).toISOString(),
    executor: party(r.executor),
    sender: party(r.sender),
    recipient: party(r.recipient),
    balance: {
      currencyId: r.currency_id,
      amount: formatAtPrecision(fromNumeric(String(r.amount)), Number(r.precision)),
    },
    category: r.category,
    note: r.note,
    reference: r.reference,
  }));
}
