/**
 * SPEC §2 Admin Console, Admin Logs: admin actions (POST /api/audit/getAdminLogs) with filters record
 * limit, admin user, affected user, start/end date, category and address; columns Date (UTC), Admin,
 * Affected User, Address, Category, Action. Empty: 'No Admin Action Logs'.
 */
import { NativeSelect, TextInput } from '@mantine/core';
import { ADMIN_CATEGORY_LABELS, type AdminCategory, formatDate } from '@starlight/shared';
import { DraftDateRange } from '../../../components/DateFilterInput.tsx';
import { PagedTableCard } from '../../../components/PagedTableCard.tsx';
import { ExportCsvButton } from '../../../lib/exports/ExportCsvButton.tsx';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { nonEmpty, usePagedFilters } from '../../../lib/use-paged-filters.ts';
import { useAdminLogs } from '../api/get-admin-logs.ts';

const CATEGORIES = [
  { value: '', label: 'All' },
  ...Object.entries(ADMIN_CATEGORY_LABELS).map(([value, label]) => ({ value, label })),
];
const EMPTY = { adminUser: '', affectedUser: '', startDate: '', endDate: '', category: '', address: '' };

export function AdminLogsTab() {
  const f = usePagedFilters(EMPTY);
  const { category, ...rest } = nonEmpty(f.applied);
  const logs = useAdminLogs({
    paging: { limit: f.limit, page: f.page },
    ...rest,
    ...(category ? { category: Number(category) } : {}),
  });
  useErrorToast(logs.error, logs.errorUpdatedAt, f.stepBack);
  const rows = logs.data?.logs.map((l) => ({
    key: l._id,
    cells: [
      formatDate(l.date, true),
      l.adminUser.nickname,
      l.affectedUser?.nickname ?? '—',
      l.address,
      ADMIN_CATEGORY_LABELS[l.category as AdminCategory] ?? l.category,
      l.action,
    ],
  }));
  return (
    <PagedTableCard
      title="Admin Logs"
      filters={
        <>
          <TextInput
            label="Admin"
            value={f.draft.adminUser}
            onChange={(e) => f.set('adminUser', e.currentTarget.value)}
          />
          <TextInput
            label="Affected user"
            value={f.draft.affectedUser}
            onChange={(e) => f.set('affectedUser', e.currentTarget.value)}
          />
          <DraftDateRange draft={f.draft} set={f.set} />
          <NativeSelect
            label="Category"
            data={CATEGORIES}
            value={f.draft.category}
            onChange={(e) => f.set('category', e.currentTarget.value)}
          />
          <TextInput
            label="Address"
            placeholder="Starts with…"
            value={f.draft.address}
            onChange={(e) => f.set('address', e.currentTarget.value)}
          />
        </>
      }
      onSearch={f.search}
      actions={<ExportCsvButton path="/api/audit/adminLogs.csv" filters={f.applied} />}
      searching={logs.isFetching}
      limit={f.limit}
      onLimit={f.setLimit}
      page={f.page}
      total={logs.data?.total ?? 0}
      totalCapped={logs.data?.totalCapped}
      onPage={f.setPage}
      columns={['Date (UTC)', 'Admin', 'Affected User', 'Address', 'Category', 'Action']}
      rows={rows}
      empty="No Admin Action Logs"
    />
  );
}
