/** The Checkout Logs' CSV export (DESIGN §11.6, admin): every checkout matching the list's filters. */
import {
  CHECKOUT_STATE_LABELS,
  type CheckoutState,
  type CheckoutsCsvQuery,
  PROVIDER_LABELS,
  type ProviderId,
} from '@starlight/shared';
import type { DbOrTx } from '../../db/client.ts';
import type { CsvColumn, KeysetPages } from '../../lib/csv-export.ts';
import { type ExportedCheckout, findCheckoutsAfter } from './checkouts-export.queries.ts';

/** Checkouts read from the database per page of the export. */
const EXPORT_PAGE_ROWS = 500;

/** The columns of the checkout export: the Checkout Logs' fields, dates ISO UTC. */
export const CHECKOUT_COLUMNS: readonly CsvColumn<ExportedCheckout>[] = [
  { header: 'Date (UTC)', cell: (c) => c.createdAt },
  { header: 'Id', cell: (c) => c.id },
  { header: 'User', cell: (c) => c.nickname },
  { header: 'Package', cell: (c) => c.packageName },
  { header: 'Package id', cell: (c) => c.packageId },
  { header: 'Cost (USD)', cell: (c) => c.cost },
  { header: 'Provider', cell: (c) => PROVIDER_LABELS[c.provider as ProviderId] ?? String(c.provider) },
  { header: 'Reference', cell: (c) => c.refId },
  { header: 'Address', cell: (c) => c.ip },
  { header: 'State', cell: (c) => CHECKOUT_STATE_LABELS[c.state as CheckoutState] ?? String(c.state) },
  { header: 'Credits', cell: (c) => c.amount },
  { header: 'Credits owed', cell: (c) => c.owed },
];

/** The keyset pages of the checkouts matching `q` (the Checkout Logs filters), newest first. */
export function checkoutPages(db: DbOrTx, q: CheckoutsCsvQuery): KeysetPages<ExportedCheckout> {
  const { token: _token, ...filters } = q;
  return (after) => findCheckoutsAfter(db, filters, after, EXPORT_PAGE_ROWS);
}
