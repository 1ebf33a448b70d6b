/**
 * SPEC §2 Admin Console, Checkout Logs (POST /api/checkout/getAllTransactions): filters record limit,
 * nickname, dates, state, provider, ref id and package; columns Date, Purchaser, Package Name, Cost,
 * Provider, State, Event History (dialog, or `None`). Dates in UTC. Empty: 'No logs found'.
 */
import { NativeSelect, TextInput } from '@mantine/core';
import {
  CHECKOUT_STATE_LABELS,
  type CheckoutState,
  formatDate,
  type GetAllCheckoutsRequest,
  PROVIDER_LABELS,
  type ProviderId,
} from '@starlight/shared';
import { DraftDateRange } from '../../../components/DateFilterInput.tsx';
import { EventHistoryButton } from '../../../components/EventHistoryButton.tsx';
import { PagedTableCard } from '../../../components/PagedTableCard.tsx';
import { ExportCsvButton } from '../../../lib/exports/ExportCsvButton.tsx';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { nonEmpty, usePagedFilters } from '../../../lib/use-paged-filters.ts';
import { useAllCheckouts } from '../api/get-all-checkouts.ts';
import { usePackages } from '../api/get-packages.ts';

const ALL = { value: '', label: 'All' };
const STATES = [ALL, ...Object.entries(CHECKOUT_STATE_LABELS).map(([value, label]) => ({ value, label }))];
const PROVIDERS = [ALL, ...Object.entries(PROVIDER_LABELS).map(([value, label]) => ({ value, label }))];
const EMPTY = { nickname: '', startDate: '', endDate: '', state: '', checkoutProvider: '', refId: '', package: '' };

export function CheckoutLogsTab() {
  const f = usePagedFilters(EMPTY);
  const packages = usePackages();
  const { state, checkoutProvider, ...rest } = nonEmpty(f.applied);
  const filters = {
    ...rest,
    ...(state ? { state: Number(state) } : {}),
    ...(checkoutProvider ? { checkoutProvider: Number(checkoutProvider) } : {}),
  } as GetAllCheckoutsRequest['filters'];
  const logs = useAllCheckouts({ paging: { limit: f.limit, page: f.page }, filters });
  useErrorToast(logs.error, logs.errorUpdatedAt, f.stepBack);
  const rows = logs.data?.transactions.map((c) => ({
    key: c._id,
    cells: [
      formatDate(c.createdAt, true),
      c.user.nickname,
      c.package.name,
      `$${c.package.cost}`,
      PROVIDER_LABELS[c.checkoutProvider as ProviderId] ?? c.checkoutProvider,
      CHECKOUT_STATE_LABELS[c.state as CheckoutState] ?? c.state,
      <EventHistoryButton key="events" events={c.eventHistory} label={`${c.user.nickname} ${c.package.name}`} />,
    ],
  }));
  return (
    <PagedTableCard
      title="Checkout Logs"
      filters={
        <>
          <TextInput
            label="Nickname"
            value={f.draft.nickname}
            onChange={(e) => f.set('nickname', e.currentTarget.value)}
          />
          <DraftDateRange draft={f.draft} set={f.set} />
          <NativeSelect
            label="State"
            data={STATES}
            value={f.draft.state}
            onChange={(e) => f.set('state', e.currentTarget.value)}
          />
          <NativeSelect
            label="Provider"
            data={PROVIDERS}
            value={f.draft.checkoutProvider}
            onChange={(e) => f.set('checkoutProvider', e.currentTarget.value)}
          />
          <TextInput label="Ref id" value={f.draft.refId} onChange={(e) => f.set('refId', e.currentTarget.value)} />
          <NativeSelect
            label="Package"
            data={[ALL, ...(packages.data ?? []).map((p) => ({ value: p._id, label: p.name }))]}
            value={f.draft.package}
            onChange={(e) => f.set('package', e.currentTarget.value)}
          />
        </>
      }
      onSearch={f.search}
      actions={<ExportCsvButton path="/api/checkout/checkouts.csv" filters={f.applied} />}
      searching={logs.isFetching}
      limit={f.limit}
      onLimit={f.setLimit}
      page={f.page}
      total={logs.data?.total ?? 0}
      totalCapped={logs.data?.totalCapped}
      onPage={f.setPage}
      columns={['Date (UTC)', 'Purchaser', 'Package Name', 'Cost', 'Provider', 'State', 'Event History']}
      rows={rows}
      empty="No logs found"
    />
  );
}
