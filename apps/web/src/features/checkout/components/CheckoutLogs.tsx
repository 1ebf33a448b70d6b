/**
 * SPEC §2 Checkout Logs sub-tab: the member's purchases, newest first, with filters (record limit, start
 * and end date, state) applied on Search and paging from page 1; columns Date, Package, Cost, Credits,
 * Provider, State and the Event History dialog (or `None`).
 */
import { Button, Card, Group, NativeSelect, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useMediaQuery } from '@mantine/hooks';
import {
  CHECKOUT_STATE_LABELS,
  type CheckoutState,
  CREDITS_CURRENCY_ID,
  formatDate,
  type GetCheckoutsRequest,
  PROVIDER_LABELS,
  type ProviderId,
} from '@starlight/shared';
import { IconSearch } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { EventHistoryButton } from '../../../components/EventHistoryButton.tsx';
import { formatMoneyWithTicker } from '../../../components/Money.tsx';
import { Paging } from '../../../components/Paging.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { useCheckouts } from '../api/get-checkouts.ts';

const STATES = [
  { value: '', label: 'All' },
  ...Object.entries(CHECKOUT_STATE_LABELS).map(([value, label]) => ({ value, label })),
];

export function CheckoutLogs() {
  const [draft, setDraft] = useState<{ startDate: string | null; endDate: string | null; state: string }>({
    startDate: null,
    endDate: null,
    state: '',
  });
  const [filters, setFilters] = useState<GetCheckoutsRequest['filters']>({});
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(10);
  const logs = useCheckouts({ paging: { limit, page }, filters });
  const isPhone = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });

  // SPEC §4: a failed page steps back one.
  useErrorToast(logs.error, logs.errorUpdatedAt, () => setPage((p) => Math.max(1, p - 1)));

  const search = (e: FormEvent) => {
    e.preventDefault();
    setFilters({
      ...(draft.startDate ? { startDate: draft.startDate } : {}),
      ...(draft.endDate ? { endDate: draft.endDate } : {}),
      // SPEC §5: the state filter is dropped when it is not a number.
      ...(draft.state !== '' && !Number.isNaN(Number(draft.state)) ? { state: Number(draft.state) } : {}),
    });
    setPage(1);
  };

  const rows = logs.data?.transactions;
  const credits = useCurrencies().byId.get(CREDITS_CURRENCY_ID);
  const paging = (
    <Paging
      page={page}
      limit={limit}
      total={logs.data?.total ?? 0}
      totalCapped={logs.data?.totalCapped ?? false}
      onPage={setPage}
    />
  );
  return (
    <Card withBorder radius="md" component="section" aria-labelledby="checkout-logs-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="checkout-logs-title">
          Checkout Logs
        </Title>
        <form onSubmit={search} noValidate>
          <SimpleGrid cols={{ base: 2, md: 4 }} spacing="xs">
            <NativeSelect
              label="Records"
              data={['10', '20', '50']}
              value={String(limit)}
              onChange={(e) => {
                setLimit(Number(e.currentTarget.value));
                setPage(1);
              }}
            />
            <DatePickerInput
              label="From"
              clearable
              valueFormat="DD/MM/YYYY"
              value={draft.startDate}
              onChange={(v) => setDraft((d) => ({ ...d, startDate: v }))}
            />
            <DatePickerInput
              label="To"
              clearable
              valueFormat="DD/MM/YYYY"
              value={draft.endDate}
              onChange={(v) => setDraft((d) => ({ ...d, endDate: v }))}
            />
            <NativeSelect
              label="State"
              data={STATES}
              value={draft.state}
              onChange={(e) => setDraft((d) => ({ ...d, state: e.currentTarget.value }))}
            />
          </SimpleGrid>
          <Button type="submit" mt="sm" leftSection={<IconSearch size={16} />} loading={logs.isFetching}>
            Search
          </Button>
        </form>
        {rows === undefined ? (
          <Skeleton h={120} />
        ) : rows.length === 0 ? (
          <Text c="dimmed" ta="center" py="lg">
            No logs found
          </Text>
        ) : isPhone ? (
          <>
            {paging}
            <Stack gap="xs" component="ul" aria-label="Checkouts" m={0} p={0} style={{ listStyle: 'none' }}>
              {rows.map((c) => (
                <Card key={c._id} component="li" withBorder radius="sm" p="sm" data-testid="checkout-row">
                  <Stack gap={4}>
                    <Group justify="space-between" wrap="nowrap">
                      <Text fw={500}>{c.package.name}</Text>
                      <Text size="sm">{CHECKOUT_STATE_LABELS[c.state as CheckoutState] ?? c.state}</Text>
                    </Group>
                    <Text size="sm">
                      ${c.package.cost} · {formatMoneyWithTicker(c.amount, credits, 'CR')} ·{' '}
                      {PROVIDER_LABELS[c.checkoutProvider as ProviderId] ?? c.checkoutProvider}
                    </Text>
                    <Group justify="space-between">
                      <Text size="xs" c="dimmed">
                        {formatDate(c.createdAt)}
                      </Text>
                      <EventHistoryButton events={c.eventHistory} label={c.package.name} />
                    </Group>
                  </Stack>
                </Card>
              ))}
            </Stack>
            {paging}
          </>
        ) : (
          <>
            {paging}
            <Table.ScrollContainer minWidth={720}>
              <Table striped verticalSpacing="xs" aria-label="Checkouts">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Date</Table.Th>
                    <Table.Th>Package</Table.Th>
                    <Table.Th>Cost</Table.Th>
                    <Table.Th>Credits</Table.Th>
                    <Table.Th>Provider</Table.Th>
                    <Table.Th>State</Table.Th>
                    <Table.Th>Event History</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((c) => (
                    <Table.Tr key={c._id} data-testid="checkout-row">
                      <Table.Td>{formatDate(c.createdAt)}</Table.Td>
                      <Table.Td>{c.package.name}</Table.Td>
                      <Table.Td>${c.package.cost}</Table.Td>
                      <Table.Td>{formatMoneyWithTicker(c.amount, credits, 'CR')}</Table.Td>
                      <Table.Td>{PROVIDER_LABELS[c.checkoutProvider as ProviderId] ?? c.checkoutProvider}</Table.Td>
                      <Table.Td>{CHECKOUT_STATE_LABELS[c.state as CheckoutState] ?? c.state}</Table.Td>
                      <Table.Td>
                        <EventHistoryButton events={c.eventHistory} label={c.package.name} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {paging}
          </>
        )}
      </Stack>
    </Card>
  );
}
