/** The ledger's CSV exports (DESIGN §11.6): a member's own history and the admin's Tnx Logs. */
import { type TransactionsCsvQuery, TX_CATEGORY_LABELS, type TxCategory } from '@starlight/shared';
import type { DbOrTx } from '../../db/client.ts';
import type { CsvColumn, KeysetPages } from '../../lib/csv-export.ts';
import { type ExportedTx, findTransactionsAfter } from './transactions-export.queries.ts';
import { ledgerMatch } from './transactions-list.queries.ts';

/** Rows read from the database per page of an export. */
const EXPORT_PAGE_ROWS = 500;

/** The columns of a ledger export: one row of the transaction list, amounts in the currency's units. */
export const TRANSACTION_COLUMNS: readonly CsvColumn<ExportedTx>[] = [
  { header: 'Date (UTC)', cell: (t) => t.createdAt },
  { header: 'Id', cell: (t) => t.id },
  { header: 'Category', cell: (t) => TX_CATEGORY_LABELS[t.category as TxCategory] ?? String(t.category) },
  { header: 'Currency', cell: (t) => t.ticker },
  { header: 'Amount', cell: (t) => t.amount },
  { header: 'Sender', cell: (t) => t.sender },
  { header: 'Recipient', cell: (t) => t.recipient },
  { header: 'Executor', cell: (t) => t.executor },
  { header: 'Note', cell: (t) => t.note },
  { header: 'Reference', cell: (t) => t.reference },
];

/**
 * The keyset pages of the ledger rows matching `q` (the transaction lists' filters), newest first: the
 * member's own rows (`ownerId`; `nickname` the other party) or everyone's (admin, no owner; `nickname`
 * any party), as the lists answer them, `EXPORT_PAGE_ROWS` a page. An unknown nickname matches nothing.
 */
export function transactionPages(
  db: DbOrTx,
  ownerId: string | undefined,
  q: TransactionsCsvQuery,
): KeysetPages<ExportedTx> {
  const { token: _token, ...filters } = q;
  // Resolved once, by the first page (the nickname's account, the branches).
  let match: ReturnType<typeof ledgerMatch> | undefined;
  return async (after) => {
    match ??= ledgerMatch(db, { ...filters, ownerId });
    const m = await match;
    return m === null ? [] : findTransactionsAfter(db, m, after, EXPORT_PAGE_ROWS);
  };
}
