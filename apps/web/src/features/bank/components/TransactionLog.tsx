/**
 * SPEC §2 User Logs: the member's transaction log with filters and paging (10 a page from page 1;
 * page back to 1 on Search; SPEC §4 previous/next rules). Filters and page live in the URL (DESIGN §1).
 * On a phone each transaction is a card with the signed amount first, as bank apps show it;
 * a table there hid the amount, category and note off to the side.
 */
import { Badge, Button, Card, Group, Loader, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useMediaQuery } from '@mantine/hooks';
import { formatDate, pageCount, type Transaction, TX_CATEGORY_LABELS, type TxCategory } from '@starlight/shared';
import { useEffect } from 'react';
import { HistoryJump } from '../../../components/HistoryJump.tsx';
import { formatMoneyWithTicker } from '../../../components/Money.tsx';
import { Paging } from '../../../components/Paging.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { ExportCsvButton } from '../../../lib/exports/ExportCsvButton.tsx';
import { labelWords, wordsOf } from '../../../lib/field-words.ts';
import { useSession } from '../../../lib/session.ts';
import { TX_LOG_LIMITS } from '../../../lib/tx-log/tx-log-search.ts';
import { type TxLogUrl, useTxLog } from '../../../lib/tx-log/use-tx-log.ts';

const CATEGORIES = Object.entries(TX_CATEGORY_LABELS).map(([value, label]) => ({ value, label }));

/** The filters in words, by their labels (SPEC §5 'Amount above contains an invalid value'). */
const words = wordsOf(
  labelWords({
    'paging.limit': 'Records',
    nickname: 'Other party',
    startDate: 'From',
    endDate: 'To',
    currencyId: 'Currency',
    category: 'Category',
    amountAbove: 'Amount above',
    amountBelow: 'Amount below',
  }),
);

const categoryLabel = (tx: Transaction) => TX_CATEGORY_LABELS[tx.category as TxCategory] ?? String(tx.category);

/** `url`: the route's filters and page and how to change them; the inputs apply on Search or Enter. */
export function TransactionLog({ url }: { url: TxLogUrl }) {
  const me = useSession((s) => s.user?.nickname);
  const { data: currencies = [], byId } = useCurrencies();
  const { query, form, submit, applied, page, limit, goToPage, goToDate, seeking, stepBackAfterError } = useTxLog(
    url,
    'own',
    words,
  );
  const isPhone = useMediaQuery('(max-width: 48em)');
  // SPEC §4: on error the page goes back by one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per failure on a page above 1
  useEffect(() => {
    if (query.isError) stepBackAfterError();
  }, [query.isError, page]);
  const total = query.data?.total ?? 0;
  const totalCapped = query.data?.totalCapped ?? false;
  const jump = (
    <HistoryJump
      pages={pageCount(total, limit)}
      capped={totalCapped}
      onPage={goToPage}
      onDate={(d) => void goToDate(d)}
      busy={seeking}
    />
  );
  /** A Select's props: '' in the form is no choice. */
  const select = (key: 'limit' | 'currencyId' | 'category') => ({
    value: form.values[key] || null,
    onChange: (v: string | null) => form.setFieldValue(key, v ?? ''),
    error: form.errors[key],
  });
  const date = (key: 'startDate' | 'endDate') => ({
    value: form.values[key],
    onChange: (v: string | null) => form.setFieldValue(key, v),
    error: form.errors[key],
  });

  return (
    <Card withBorder radius="md">
      <form onSubmit={submit} noValidate data-testid="txlog-filters">
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="xs" mb="sm">
          <Select label="Records" data={[...TX_LOG_LIMITS]} allowDeselect={false} {...select('limit')} />
          <Select
            label="Currency"
            clearable
            data={currencies.map((c) => ({ value: String(c.currencyId), label: c.ticker }))}
            {...select('currencyId')}
          />
          <Select label="Category" clearable data={CATEGORIES} {...select('category')} />
          <TextInput label="Other party" autoComplete="off" {...form.getInputProps('nickname')} />
          <DatePickerInput label="From" clearable valueFormat="DD/MM/YYYY" {...date('startDate')} />
          <DatePickerInput label="To" clearable valueFormat="DD/MM/YYYY" {...date('endDate')} />
          <TextInput
            label="Amount above"
            inputMode="decimal"
            autoComplete="off"
            {...form.getInputProps('amountAbove')}
          />
          <TextInput
            label="Amount below"
            inputMode="decimal"
            autoComplete="off"
            {...form.getInputProps('amountBelow')}
          />
        </SimpleGrid>
        <Group justify="flex-end" mb="sm">
          <ExportCsvButton path="/api/bank/transactions.csv" filters={applied} />
          <Button type="submit">Search</Button>
        </Group>
      </form>
      {query.isError && (
        <Text c="red" size="sm" mb="xs">
          {query.error.message}
        </Text>
      )}
      {query.isLoading ? (
        <Loader size="sm" />
      ) : (query.data?.txs.length ?? 0) === 0 ? (
        <Stack gap="sm">
          <Text c="dimmed">No Transactions</Text>
          {/* A link to a page past the end still offers the way back. */}
          {page > 1 && <Paging page={page} limit={limit} total={total} totalCapped={totalCapped} onPage={goToPage} />}
        </Stack>
      ) : isPhone ? (
        <>
          <Stack gap="xs" role="list" aria-label="Transaction log">
            {query.data?.txs.map((tx) => {
              const currency = byId.get(tx.balance.currencyId);
              const incoming = tx.recipient?.nickname === me;
              const other = incoming ? tx.sender?.nickname : tx.recipient?.nickname;
              return (
                <Card key={tx._id} withBorder radius="sm" p="sm" role="listitem" data-testid="tx-card">
                  <Group justify="space-between" wrap="nowrap" align="start" gap="xs">
                    <Text fw={700} c={incoming ? 'teal' : 'red'} style={{ fontVariantNumeric: 'tabular-nums' }}>
                      {incoming ? '+' : '−'}
                      {formatMoneyWithTicker(tx.balance.amount, currency)}
                    </Text>
                    <Badge variant="light" size="sm" style={{ flexShrink: 0 }}>
                      {categoryLabel(tx)}
                    </Badge>
                  </Group>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {incoming ? 'From' : 'To'} {other ?? 'System'}
                  </Text>
                  {tx.note && (
                    <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {tx.note}
                    </Text>
                  )}
                  <Text size="xs" c="dimmed">
                    {formatDate(tx.createdAt)}
                  </Text>
                </Card>
              );
            })}
          </Stack>
          <Stack gap="xs" mt="xs">
            <Paging page={page} limit={limit} total={total} totalCapped={totalCapped} onPage={goToPage} />
            {jump}
          </Stack>
        </>
      ) : (
        <>
          <Table.ScrollContainer minWidth={640}>
            <Table striped highlightOnHover verticalSpacing="xs" aria-label="Transaction log">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Date</Table.Th>
                  <Table.Th>From</Table.Th>
                  <Table.Th>To</Table.Th>
                  <Table.Th ta="right">Amount</Table.Th>
                  <Table.Th>Category</Table.Th>
                  <Table.Th>Note</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {query.data?.txs.map((tx) => {
                  const currency = byId.get(tx.balance.currencyId);
                  const incoming = tx.recipient?.nickname === me;
                  return (
                    <Table.Tr key={tx._id}>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(tx.createdAt)}</Table.Td>
                      <Table.Td>{tx.sender?.nickname ?? 'System'}</Table.Td>
                      <Table.Td>{tx.recipient?.nickname ?? 'System'}</Table.Td>
                      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }} c={incoming ? 'teal' : 'red'}>
                        {incoming ? '+' : '−'}
                        {formatMoneyWithTicker(tx.balance.amount, currency)}
                      </Table.Td>
                      <Table.Td>
                        <Badge variant="light" size="sm">
                          {categoryLabel(tx)}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{tx.note}</Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Stack gap="xs" mt="xs">
            <Paging page={page} limit={limit} total={total} totalCapped={totalCapped} onPage={goToPage} />
            {jump}
          </Stack>
        </>
      )}
    </Card>
  );
}
