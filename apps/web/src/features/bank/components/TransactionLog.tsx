/**
 * SPEC §2 User Logs: the member's transaction log with filters and paging (10 a page from page 1;
 * page back to 1 on Search; SPEC §4 previous/next rules).
 */
import { Badge, Button, Card, Group, Loader, Select, SimpleGrid, Table, Text, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import {
  formatDate,
  pageAfterError,
  type TransactionsRequest,
  TX_CATEGORY_LABELS,
  type TxCategory,
} from '@starlight/shared';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { formatMoney } from '../../../components/Money.tsx';
import { Paging } from '../../../components/Paging.tsx';
import { dropEmpty } from '../../../lib/form.ts';
import { useSession } from '../../../lib/session.ts';
import { useCurrencies } from '../api/currencies.ts';
import { useTransactions } from '../api/transactions.ts';

interface Filters {
  limit: string;
  currencyId: string;
  category: string;
  nickname: string;
  startDate: string | null;
  endDate: string | null;
  amountAbove: string;
  amountBelow: string;
}

const EMPTY: Filters = {
  limit: '10',
  currencyId: '',
  category: '',
  nickname: '',
  startDate: null,
  endDate: null,
  amountAbove: '',
  amountBelow: '',
};

function toRequest(f: Filters, page: number): TransactionsRequest {
  const day = (d: string | null) => (d ? dayjs(d).format('YYYY-MM-DD') : '');
  return {
    paging: { limit: Number(f.limit), page },
    ...dropEmpty({
      currencyId: f.currencyId ? Number(f.currencyId) : '',
      category: f.category ? Number(f.category) : '',
      nickname: f.nickname.trim(),
      startDate: day(f.startDate),
      endDate: day(f.endDate),
      amountAbove: f.amountAbove.trim(),
      amountBelow: f.amountBelow.trim(),
    }),
  } as TransactionsRequest;
}

export function TransactionLog({ initialCurrencyId }: { initialCurrencyId?: number }) {
  const me = useSession((s) => s.user?.nickname);
  const { data: currencies = [], byId } = useCurrencies();
  const start = { ...EMPTY, currencyId: initialCurrencyId ? String(initialCurrencyId) : '' };
  const [draft, setDraft] = useState<Filters>(start);
  const [applied, setApplied] = useState<Filters>(start);
  const [page, setPage] = useState(1);
  const query = useTransactions('own', toRequest(applied, page));
  const set = (k: keyof Filters) => (v: string | null) => setDraft((d) => ({ ...d, [k]: v ?? '' }));
  const search = () => {
    setApplied(draft);
    setPage(1);
  };
  // SPEC §4: on error the page goes back by one.
  useEffect(() => {
    if (query.isError && page > 1) setPage(pageAfterError(page));
  }, [query.isError, page]);
  const total = query.data?.total ?? 0;
  const limit = Number(applied.limit);

  return (
    <Card withBorder radius="md">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          search();
        }}
      >
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="xs" mb="sm">
          <Select
            label="Records"
            data={['10', '20', '50']}
            value={draft.limit}
            onChange={set('limit')}
            allowDeselect={false}
          />
          <Select
            label="Currency"
            clearable
            data={currencies.map((c) => ({ value: String(c.currencyId), label: c.ticker }))}
            value={draft.currencyId || null}
            onChange={set('currencyId')}
          />
          <Select
            label="Category"
            clearable
            data={Object.entries(TX_CATEGORY_LABELS).map(([value, label]) => ({ value, label }))}
            value={draft.category || null}
            onChange={set('category')}
          />
          <TextInput
            label="Other party"
            value={draft.nickname}
            onChange={(e) => set('nickname')(e.currentTarget.value)}
          />
          <DatePickerInput label="From" clearable value={draft.startDate} onChange={set('startDate')} />
          <DatePickerInput label="To" clearable value={draft.endDate} onChange={set('endDate')} />
          <TextInput
            label="Amount above"
            value={draft.amountAbove}
            onChange={(e) => set('amountAbove')(e.currentTarget.value)}
          />
          <TextInput
            label="Amount below"
            value={draft.amountBelow}
            onChange={(e) => set('amountBelow')(e.currentTarget.value)}
          />
        </SimpleGrid>
        <Group justify="flex-end" mb="sm">
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
        <Text c="dimmed">No Transactions</Text>
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
                        {formatMoney(tx.balance.amount, currency)} {currency?.ticker}
                      </Table.Td>
                      <Table.Td>
                        <Badge variant="light" size="sm">
                          {TX_CATEGORY_LABELS[tx.category as TxCategory] ?? tx.category}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{tx.note}</Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Paging page={page} limit={limit} total={total} onPage={setPage} />
        </>
      )}
    </Card>
  );
}
