/**
 * SPEC §2 Admin Console, Forge Process Logs (POST /api/forge/getForgeProcessesAll): filters record
 * limit, nickname, start after/before, finished after/before, state and recipe; columns Start Date,
 * Finish Date, User, Process Name, Input and Output (ticker x amount times quantity), State. Dates in UTC.
 * Empty: 'No logs found'.
 */
import { NativeSelect, TextInput } from '@mantine/core';
import { formatDate, PROCESS_STATE_LABELS, type ProcessState } from '@starlight/shared';
import { DateFilterInput } from '../../../components/DateFilterInput.tsx';
import { PagedTableCard } from '../../../components/PagedTableCard.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { ExportCsvButton } from '../../../lib/exports/ExportCsvButton.tsx';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { nonEmpty, usePagedFilters } from '../../../lib/use-paged-filters.ts';
import { useForgeProcessesAll } from '../api/get-forge-processes-all.ts';
import { useRecipes } from '../api/get-recipes.ts';
import { forgeSideText } from '../utils/side-text.ts';

const STATES = [
  { value: '', label: 'All' },
  ...Object.entries(PROCESS_STATE_LABELS).map(([value, label]) => ({ value, label })),
];
const EMPTY = {
  nickname: '',
  startAfter: '',
  startBefore: '',
  finishAfter: '',
  finishBefore: '',
  state: '',
  recipe: '',
};

export function ForgeProcessLogsTab() {
  const f = usePagedFilters(EMPTY);
  const { byId } = useCurrencies();
  const recipes = useRecipes();
  const { state, ...rest } = nonEmpty(f.applied);
  const filters = { ...rest, ...(state ? { state: Number(state) as ProcessState } : {}) };
  const logs = useForgeProcessesAll({ paging: { limit: f.limit, page: f.page }, filters });
  useErrorToast(logs.error, logs.errorUpdatedAt, f.stepBack);
  const rows = logs.data?.processes.map((p) => ({
    key: p._id,
    cells: [
      formatDate(p.createdAt, true),
      formatDate(p.finishDate, true),
      p.user.nickname,
      p.recipe.name,
      forgeSideText(p.input, p.quantity, byId.get(p.input.currencyId)),
      forgeSideText(p.output, p.quantity, byId.get(p.output.currencyId)),
      PROCESS_STATE_LABELS[p.state as ProcessState] ?? p.state,
    ],
  }));
  const date = (key: 'startAfter' | 'startBefore' | 'finishAfter' | 'finishBefore', label: string) => (
    <DateFilterInput label={label} value={f.draft[key] || null} onChange={(v) => f.set(key, v ?? '')} />
  );
  return (
    <PagedTableCard
      title="Forge Process Logs"
      filters={
        <>
          <TextInput
            label="Nickname"
            value={f.draft.nickname}
            onChange={(e) => f.set('nickname', e.currentTarget.value)}
          />
          {date('startAfter', 'Started after')}
          {date('startBefore', 'Started before')}
          {date('finishAfter', 'Finished after')}
          {date('finishBefore', 'Finished before')}
          <NativeSelect
            label="State"
            data={STATES}
            value={f.draft.state}
            onChange={(e) => f.set('state', e.currentTarget.value)}
          />
          <NativeSelect
            label="Recipe"
            data={[{ value: '', label: 'All' }, ...(recipes.data ?? []).map((r) => ({ value: r._id, label: r.name }))]}
            value={f.draft.recipe}
            onChange={(e) => f.set('recipe', e.currentTarget.value)}
          />
        </>
      }
      onSearch={f.search}
      actions={<ExportCsvButton path="/api/forge/processes.csv" filters={f.applied} />}
      searching={logs.isFetching}
      limit={f.limit}
      onLimit={f.setLimit}
      page={f.page}
      total={logs.data?.total ?? 0}
      totalCapped={logs.data?.totalCapped}
      onPage={f.setPage}
      columns={['Start Date (UTC)', 'Finish Date (UTC)', 'User', 'Process Name', 'Input', 'Output', 'State']}
      rows={rows}
      empty="No logs found"
    />
  );
}
