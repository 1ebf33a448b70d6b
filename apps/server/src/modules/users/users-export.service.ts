/** The user list's CSV export (DESIGN §11.6, admin): every account matching the list's filters. */
import type { UsersCsvQuery } from '@starlight/shared';
import type { DbOrTx } from '../../db/client.ts';
import type { CsvColumn, KeysetPages } from '../../lib/csv-export.ts';
import { type ExportedUser, findUsersAfter } from './users-export.queries.ts';

/** Accounts read from the database per page of the export. */
const EXPORT_PAGE_ROWS = 500;

const yesNo = (v: boolean) => (v ? 'yes' : 'no');

/** The columns of the user export: the list's fields (DESIGN §3 `User`, no secrets), dates ISO UTC. */
export const USER_COLUMNS: readonly CsvColumn<ExportedUser>[] = [
  { header: 'Created (UTC)', cell: (u) => u.createdAt },
  { header: 'Id', cell: (u) => u.id },
  { header: 'Nickname', cell: (u) => u.nickname },
  { header: 'Email', cell: (u) => u.email },
  { header: 'Role', cell: (u) => u.role },
  { header: 'Primary wallet', cell: (u) => u.primaryWallet },
  { header: 'Active', cell: (u) => yesNo(u.isActive) },
  { header: 'Wallet only', cell: (u) => yesNo(u.isWalletOnly) },
  { header: 'Email verified', cell: (u) => yesNo(u.isEmailVerified) },
  { header: 'Anonymous', cell: (u) => yesNo(u.isAnonymous) },
  { header: 'Referrer', cell: (u) => u.referrer },
  { header: 'Fame', cell: (u) => u.fame },
  { header: 'Holds currency', cell: (u) => yesNo(u.hasCurrency) },
];

/** The keyset pages of the accounts matching `q` (the user list's filters), newest first. */
export function userPages(db: DbOrTx, q: UsersCsvQuery): KeysetPages<ExportedUser> {
  const { token: _token, ...filters } = q;
  return (after) => findUsersAfter(db, filters, after, EXPORT_PAGE_ROWS);
}
