/** The settlement list's CSV export (DESIGN §11.6, admin): every deposit and withdrawal matching its filters. */
import type { SettlementsCsvQuery } from '@starlight/shared';
import type { DbOrTx } from '../../db/client.ts';
import type { CsvColumn, KeysetPages } from '../../lib/csv-export.ts';
import { type ExportedSettlement, findSettlementsAfter } from './settlements-export.queries.ts';

/** Settlements read from the database per page of the export. */
const EXPORT_PAGE_ROWS = 500;

/** The columns of the settlement export: the list's fields, amounts in the currency's units, dates ISO UTC. */
export const SETTLEMENT_COLUMNS: readonly CsvColumn<ExportedSettlement>[] = [
  { header: 'Date (UTC)', cell: (s) => s.createdAt },
  { header: 'Id', cell: (s) => s.id },
  { header: 'Kind', cell: (s) => s.kind },
  { header: 'User', cell: (s) => s.nickname },
  { header: 'Currency', cell: (s) => s.ticker },
  { header: 'Amount', cell: (s) => s.amount },
  { header: 'Tax', cell: (s) => s.tax },
  { header: 'Wallet address', cell: (s) => s.walletAddress },
  { header: 'Reference', cell: (s) => s.reference },
  { header: 'State', cell: (s) => s.state },
  { header: 'Note', cell: (s) => s.note },
  { header: 'Settled (UTC)', cell: (s) => s.settledAt },
];

/** The keyset pages of the settlements matching `q`, pending first, then newest (the list's order). */
export function settlementPages(db: DbOrTx, q: SettlementsCsvQuery): KeysetPages<ExportedSettlement> {
  const { token: _token, ...filters } = q;
  return (after) => findSettlementsAfter(db, filters, after, EXPORT_PAGE_ROWS);
}
