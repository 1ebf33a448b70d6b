/** The access and admin logs' CSV exports (DESIGN §11.6, admin): every row matching the list's filters. */
import {
  type AccessLogsCsvQuery,
  ADMIN_CATEGORY_LABELS,
  type AdminCategory,
  type AdminLogsCsvQuery,
  LOGIN_TYPE_LABELS,
} from '@starlight/shared';
import type { DbOrTx } from '../../db/client.ts';
import type { CsvColumn, KeysetPages } from '../../lib/csv-export.ts';
import {
  type ExportedAccessLog,
  type ExportedAdminLog,
  findAccessLogsAfter,
  findAdminLogsAfter,
} from './logs-export.queries.ts';

/** Rows read from the database per page of an export. */
const EXPORT_PAGE_ROWS = 500;

/** The columns of the access log export: the Access Logs tab's. */
export const ACCESS_LOG_COLUMNS: readonly CsvColumn<ExportedAccessLog>[] = [
  { header: 'Date (UTC)', cell: (l) => l.date },
  { header: 'Id', cell: (l) => l.id },
  { header: 'User', cell: (l) => l.nickname },
  { header: 'Address', cell: (l) => l.address },
  { header: 'Login type', cell: (l) => LOGIN_TYPE_LABELS[l.loginType] ?? String(l.loginType) },
];

/** The columns of the admin log export: the Admin Logs tab's. */
export const ADMIN_LOG_COLUMNS: readonly CsvColumn<ExportedAdminLog>[] = [
  { header: 'Date (UTC)', cell: (l) => l.date },
  { header: 'Id', cell: (l) => l.id },
  { header: 'Admin', cell: (l) => l.admin },
  { header: 'Affected user', cell: (l) => l.affected },
  { header: 'Address', cell: (l) => l.address },
  { header: 'Category', cell: (l) => ADMIN_CATEGORY_LABELS[l.category as AdminCategory] ?? String(l.category) },
  { header: 'Action', cell: (l) => l.action },
];

/** The keyset pages of the sign-ins matching `q` (the Access Logs filters), newest first. */
export function accessLogPages(db: DbOrTx, q: AccessLogsCsvQuery): KeysetPages<ExportedAccessLog> {
  const { token: _token, ...filters } = q;
  return (after) => findAccessLogsAfter(db, filters, after, EXPORT_PAGE_ROWS);
}

/** The keyset pages of the admin actions matching `q` (the Admin Logs filters), newest first. */
export function adminLogPages(db: DbOrTx, q: AdminLogsCsvQuery): KeysetPages<ExportedAdminLog> {
  const { token: _token, ...filters } = q;
  return (after) => findAdminLogsAfter(db, filters, after, EXPORT_PAGE_ROWS);
}
