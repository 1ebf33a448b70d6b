/**
 * SPEC §2 Admin Console, Tnx Logs: every member's ledger rows (POST /api/bank/alltransactions).
 * Filters: record limit (10, 20, 50; default 10), nickname, start/end date, currency, category (or Market:
 * categories 50 and 51 together), amount above/below (free text); Search goes back to page 1; paging top and bottom (SPEC §4, on error back one
 * page). Columns Date (UTC, en-GB), Executor, Sender, Recipient, Amount, Currency, Category, Note.
 * Filters, record limit and page live in the URL (DESIGN §1); the record limit applies at once, the
 * other filters on Search or Enter.
 */
import {
  Alert,
  Button,
  Card,
  Group,
  NativeSelect,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { formatDate, pageCount, type Transaction, TX_CATEGORY_LABELS, type TxCategory } from '@starlight/shared';
import { IconSearch } from '@tabler/icons-react';
import { DateFilterInput } from '../../../components/DateFilterInput.tsx';
import { HistoryJump } from '../../../components/HistoryJump.tsx';
import { formatMoney } from '../../../components/Money.tsx';
import { Paging } from '../../../components/Paging.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { ExportCsvButton } from '../../../lib/exports/ExportCsvButton.tsx';
import { labelWords, wordsOf } from '../../../lib/field-words.ts';
import { TX_LOG_LIMITS } from '../../../lib/tx-log/tx-log-search.ts';
import { type TxLogUrl, useTxLog } from '../../../lib/tx-log/use-tx-log.ts';
import { useErrorToast } from '../../../lib/use-error-toast.ts';

const COLUMNS = ['Date (UTC)', 'Executor', 'Sender', 'Recipient', 'Amount', 'Currency', 'Category', 'Note'];
const CATEGORIES = [
  { value: '', label: 'All' },
  // The marketplace's two categories at once (DESIGN §11.5): purchases and royalties.
  { value: 'market', label: 'Market (purchases and royalties)' },
  ...Object.entries(TX_CATEGORY_LABELS).map(([value, label]) => ({ value, label })),
];

/** The filters in words, by their labels (SPEC §5 'Amount above contains an invalid value'). */
const words = wordsOf(
  labelWords({
    'paging.limit': 'Record limit',
    nickname: 'Nickname',
    startDate: 'Start date',
    endDate: 'End date',
    currencyId: 'Currency',
    category: 'Category',
    amountAbove: 'Amount above',
    amountBelow: 'Amount below',
  }),
);

const party = (p: Transaction['sender']) => p?.nickname ?? 'System';

/** `url`: the route's filters and page (`tx*`) and how to change them. */
export function TnxLogsTab({ url }: { url: TxLogUrl }) {
  const currencies = useCurrencies();
  const {
    query: txs,
    form,
    submit,
    applied,
    page,
    limit,
    goToPage,
    goToDate,
    seeking,
    setLimit,
    stepBackAfterError,
  } = useTxLog(url, 'all', words);
  useErrorToast(txs.error, txs.errorUpdatedAt, stepBackAfterError);

  const rows = txs.data?.txs ?? [];
  const total = txs.data?.total ?? 0;
  const paging = (
    <Paging page={page} limit={limit} total={total} totalCapped={txs.data?.totalCapped ?? false} onPage={goToPage} />
  );

  return (
    <Card withBorder radius="md" p={{ base: 'sm', sm: 'lg' }} component="section" aria-labelledby="tnx-logs-title">
      <Stack gap="md">
        <Title order={3} id="tnx-logs-title">
          Tnx Logs
        </Title>
        <form onSubmit={submit} noValidate data-testid="tnx-filters">
          <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm" style={{ alignItems: 'start' }}>
            <NativeSelect
              label="Record limit"
              data={[...TX_LOG_LIMITS]}
              value={String(limit)}
              onChange={(e) => setLimit(Number(e.currentTarget.value))}
              data-testid="tnx-limit"
            />
            <TextInput
              label="Nickname"
              autoComplete="off"
              data-testid="tnx-nickname"
              {...form.getInputProps('nickname')}
            />
            <DateFilterInput
              label="Start date"
              testId="tnx-start"
              value={form.values.startDate}
              onChange={(v) => form.setFieldValue('startDate', v)}
              error={form.errors.startDate}
            />
            <DateFilterInput
              label="End date"
              testId="tnx-end"
              value={form.values.endDate}
              onChange={(v) => form.setFieldValue('endDate', v)}
              error={form.errors.endDate}
            />
            <NativeSelect
              label="Currency"
              data={[
                { value: '', label: 'All' },
                ...(currencies.data ?? []).map((c) => ({ value: String(c.currencyId), label: c.ticker })),
              ]}
              data-testid="tnx-currency"
              {...form.getInputProps('currencyId')}
            />
            <NativeSelect
              label="Category"
              data={CATEGORIES}
              data-testid="tnx-category"
              {...form.getInputProps('category')}
            />
            <TextInput
              label="Amount above"
              inputMode="decimal"
              autoComplete="off"
              data-testid="tnx-amount-above"
              {...form.getInputProps('amountAbove')}
            />
            <TextInput
              label="Amount below"
              inputMode="decimal"
              autoComplete="off"
              data-testid="tnx-amount-below"
              {...form.getInputProps('amountBelow')}
            />
          </SimpleGrid>
          <Group mt="sm" gap="sm">
            <Button
              type="submit"
              leftSection={<IconSearch size={16} />}
              loading={txs.isFetching}
              data-testid="tnx-search"
            >
              Search
            </Button>
            <ExportCsvButton path="/api/bank/alltransactions.csv" filters={applied} />
          </Group>
        </form>
        {paging}
        <HistoryJump
          pages={pageCount(total, limit)}
          capped={txs.data?.totalCapped ?? false}
          onPage={goToPage}
          onDate={(d) => void goToDate(d)}
          busy={seeking}
        />
        {txs.isError && (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(txs.error)}
          </Alert>
        )}
        <Table.ScrollContainer
          minWidth={980}
          type="native"
          tabIndex={0}
          role="region"
          aria-label="Transactions"
          data-testid="tnx-scroll"
        >
          <Table
            striped
            highlightOnHover
            verticalSpacing="xs"
            data-testid="tnx-table"
            style={{ opacity: txs.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}
          >
            <Table.Thead>
              <Table.Tr>
                {COLUMNS.map((c) => (
                  <Table.Th key={c} ta={c === 'Amount' ? 'right' : undefined} style={{ whiteSpace: 'nowrap' }}>
                    {c}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {txs.isPending ? (
                [0, 1, 2, 3, 4].map((i) => (
                  <Table.Tr key={i}>
                    <Table.Td colSpan={COLUMNS.length}>
                      <Skeleton height={18} />
                    </Table.Td>
                  </Table.Tr>
                ))
              ) : rows.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={COLUMNS.length}>
                    <Text c="dimmed" ta="center" py="md" data-testid="tnx-empty">
                      No Transactions
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                rows.map((tx) => {
                  const currency = currencies.byId.get(tx.balance.currencyId);
                  return (
                    <Table.Tr key={tx._id} data-testid="tnx-row">
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(tx.createdAt, true)}</Table.Td>
                      <Table.Td>{party(tx.executor)}</Table.Td>
                      <Table.Td>{party(tx.sender)}</Table.Td>
                      <Table.Td>{party(tx.recipient)}</Table.Td>
                      <Table.Td ta="right" style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
                        {formatMoney(tx.balance.amount, currency)}
                      </Table.Td>
                      <Table.Td>{currency?.ticker ?? tx.balance.currencyId}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        {TX_CATEGORY_LABELS[tx.category as TxCategory] ?? tx.category}
                      </Table.Td>
                      <Table.Td style={{ minWidth: 160, wordBreak: 'break-word' }}>{tx.note}</Table.Td>
                    </Table.Tr>
                  );
                })
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {paging}
      </Stack>
    </Card>
  );
}
