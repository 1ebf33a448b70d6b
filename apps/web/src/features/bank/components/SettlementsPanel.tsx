/**
 * DESIGN §8: the Settlements view of the admin Currency tab. Deposits and withdrawals,
 * pending first, filtered by kind and state, with Approve / Refuse and a note. Empty: 'No Settlements'.
 */
import { Badge, Button, Group, Modal, NativeSelect, Stack, Text, Textarea } from '@mantine/core';
import { formatDate, type Settlement } from '@starlight/shared';
import { useState } from 'react';
import { formatMoneyWithTicker } from '../../../components/Money.tsx';
import { PagedTableCard } from '../../../components/PagedTableCard.tsx';
import { ShortHash } from '../../../components/ShortHash.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { ExportCsvButton } from '../../../lib/exports/ExportCsvButton.tsx';
import { toastSuccess } from '../../../lib/notify.ts';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { usePagedFilters } from '../../../lib/use-paged-filters.ts';
import { useSettlements } from '../api/get-settlements.ts';
import { useSettle } from '../api/settle.ts';

const KINDS = [
  { value: '', label: 'All' },
  { value: 'deposit', label: 'Deposits' },
  { value: 'withdrawal', label: 'Withdrawals' },
];
const STATES = [
  { value: '', label: 'All' },
  { value: 'pending', label: 'Pending' },
  { value: 'approved', label: 'Approved' },
  { value: 'refused', label: 'Refused' },
];
const STATE_COLOR = { pending: 'yellow', approved: 'teal', refused: 'red' } as const;

function SettleDialog({
  target,
  onClose,
}: {
  target: { s: Settlement; approve: boolean } | null;
  onClose: () => void;
}) {
  const settle = useSettle();
  const { byId } = useCurrencies();
  const [note, setNote] = useState('');
  const close = () => {
    setNote('');
    onClose();
  };
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!target) return;
    try {
      const res = await settle.mutateAsync({ settlementId: target.s._id, approve: target.approve, note: note.trim() });
      toastSuccess(res.message);
      close();
    } catch {
      // The mutation toasted the failure (useIdempotentMutation).
    }
  };
  const verb = target?.approve ? 'Approve' : 'Refuse';
  const amount = target ? formatMoneyWithTicker(target.s.amount, byId.get(target.s.currencyId)) : '';
  return (
    <Modal opened={target !== null} onClose={close} title={`${verb} ${target?.s.kind ?? ''}`} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          {target && (
            <Text size="sm">
              {target.s.kind === 'withdrawal'
                ? target.approve
                  ? `Approve once you have sent ${amount} to ${target.s.walletAddress}.`
                  : `Refusing pays ${target.s.user.nickname} back the amount and its tax.`
                : target.approve
                  ? `Approving credits ${target.s.user.nickname} with ${amount} (less any deposit tax).`
                  : 'Refusing credits nothing.'}
            </Text>
          )}
          <Textarea
            label="Note"
            maxLength={255}
            autosize
            minRows={2}
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" color={target?.approve ? undefined : 'red'} loading={settle.isPending}>
              {verb}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export function SettlementsPanel() {
  const f = usePagedFilters({ kind: '', state: '' });
  const { byId } = useCurrencies();
  const list = useSettlements({
    paging: { limit: f.limit, page: f.page },
    ...(f.applied.kind ? { kind: f.applied.kind as 'deposit' | 'withdrawal' } : {}),
    ...(f.applied.state ? { state: f.applied.state as 'pending' | 'approved' | 'refused' } : {}),
  });
  useErrorToast(list.error, list.errorUpdatedAt, f.stepBack);
  const [target, setTarget] = useState<{ s: Settlement; approve: boolean } | null>(null);
  const rows = list.data?.settlements.map((s) => ({
    key: s._id,
    cells: [
      formatDate(s.createdAt, true),
      s.kind === 'deposit' ? 'Deposit' : 'Withdrawal',
      s.user.nickname,
      formatMoneyWithTicker(s.amount, byId.get(s.currencyId)),
      // A 42-character wallet and a 66-character reference, shortened: the whole in the title and a copy.
      <Stack key="wallet" gap={0}>
        {s.walletAddress && <ShortHash value={s.walletAddress} label="wallet address" />}
        {s.reference && <ShortHash value={s.reference} label="transaction reference" />}
      </Stack>,
      // As wide as its word: never cut to "PEN…".
      <Badge
        key="state"
        color={STATE_COLOR[s.state]}
        variant="light"
        styles={{ root: { overflow: 'visible', flexShrink: 0 }, label: { overflow: 'visible' } }}
      >
        {s.state}
      </Badge>,
      s.state === 'pending' ? (
        <Group key="actions" gap={4} wrap="nowrap">
          <Button size="compact-xs" variant="light" color="teal" onClick={() => setTarget({ s, approve: true })}>
            Approve
          </Button>
          <Button size="compact-xs" color="red" variant="light" onClick={() => setTarget({ s, approve: false })}>
            Refuse
          </Button>
        </Group>
      ) : (
        <Text key="note" size="xs" c="dimmed">
          {s.note || '—'}
        </Text>
      ),
    ],
  }));
  return (
    <>
      <PagedTableCard
        title="Settlements"
        filters={
          <>
            <NativeSelect
              label="Kind"
              data={KINDS}
              value={f.draft.kind}
              onChange={(e) => f.set('kind', e.currentTarget.value)}
            />
            <NativeSelect
              label="State"
              data={STATES}
              value={f.draft.state}
              onChange={(e) => f.set('state', e.currentTarget.value)}
            />
          </>
        }
        onSearch={f.search}
        actions={<ExportCsvButton path="/api/bank/settlements.csv" filters={f.applied} />}
        searching={list.isFetching}
        limit={f.limit}
        onLimit={f.setLimit}
        page={f.page}
        total={list.data?.total ?? 0}
        totalCapped={list.data?.totalCapped}
        onPage={f.setPage}
        columns={['Date (UTC)', 'Kind', 'Member', 'Amount', 'Wallet · reference', 'State', 'Action / note']}
        rows={rows}
        empty="No Settlements"
      />
      <SettleDialog target={target} onClose={() => setTarget(null)} />
    </>
  );
}
