/**
 * SPEC §2 Admin Console, Access Logs: sign-ins (POST /api/audit/getAccessLogs) with filters record limit,
 * user, start/end date, login type and address; columns Date (UTC), User, Address, Login Type.
 * Empty: 'No Access Logs'.
 */
import { NativeSelect, TextInput } from '@mantine/core';
import { formatDate, LOGIN_TYPE_LABELS } from '@starlight/shared';
import { DraftDateRange } from '../../../components/DateFilterInput.tsx';
import { PagedTableCard } from '../../../components/PagedTableCard.tsx';
import { ExportCsvButton } from '../../../lib/exports/ExportCsvButton.tsx';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { nonEmpty, usePagedFilters } from '../../../lib/use-paged-filters.ts';
import { useAccessLogs } from '../api/get-access-logs.ts';

const TYPES = [
  { value: '', label: 'All' },
  ...Object.entries(LOGIN_TYPE_LABELS).map(([value, label]) => ({ value, label })),
];
const EMPTY = { user: '', startDate: '', endDate: '', category: '', address: '' };

export function AccessLogsTab() {
  const f = usePagedFilters(EMPTY);
  const { category, ...rest } = nonEmpty(f.applied);
  const logs = useAccessLogs({
    paging: { limit: f.limit, page: f.page },
    ...rest,
    ...(category ? { category: Number(category) } : {}),
  });
  useErrorToast(logs.error, logs.errorUpdatedAt, f.stepBack);
  const rows = logs.data?.logs.map((l) => ({
    key: l._id,
    cells: [formatDate(l.date, true), l.user.nickname, l.address, LOGIN_TYPE_LABELS[l.loginType] ?? l.loginType],
  }));
  return (
    <PagedTableCard
      title="Access Logs"
      filters={
        <>
          <TextInput label="User" value={f.draft.user} onChange={(e) => f.set('user', e.currentTarget.value)} />
          <DraftDateRange draft={f.draft} set={f.set} />
          <NativeSelect
            label="Login type"
            data={TYPES}
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
      actions={<ExportCsvButton path="/api/audit/accessLogs.csv" filters={f.applied} />}
      searching={logs.isFetching}
      limit={f.limit}
      onLimit={f.setLimit}
      page={f.page}
      total={logs.data?.total ?? 0}
      totalCapped={logs.data?.totalCapped}
      onPage={f.setPage}
      columns={['Date (UTC)', 'User', 'Address', 'Login Type']}
      rows={rows}
      empty="No Access Logs"
    />
  );
}
