/** The latest trades of a pair, newest first; live through the socket's `trades` pushes. */
import { Card, Table, Text, Title } from '@mantine/core';
import { formatMoney } from '../../../components/Money.tsx';
import { useTrades } from '../api/get-trades.ts';
import type { PairView } from '../hooks/use-pair-view.ts';

function timeOf(iso: string): string {
  return new Date(iso).toLocaleTimeString('en-GB');
}

export function RecentTrades({ view }: { view: PairView }) {
  const trades = useTrades(view.pair._id);
  const rows = (trades.data ?? []).slice(0, 20);
  return (
    <Card withBorder radius="md" component="section" aria-labelledby="trades-title">
      <Title order={2} size="h4" id="trades-title" mb="xs">
        Recent trades
      </Title>
      {rows.length === 0 ? (
        <Text c="dimmed">No trades yet</Text>
      ) : (
        <Table aria-label="Recent trades" verticalSpacing={4} fz="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Time</Table.Th>
              <Table.Th>Price ({view.sellTicker})</Table.Th>
              <Table.Th ta="right">Quantity ({view.buyTicker})</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((t) => (
              <Table.Tr key={t._id}>
                <Table.Td>{timeOf(t.createdAt)}</Table.Td>
                <Table.Td c={t.buySide ? 'teal.4' : 'red.4'}>{formatMoney(t.price, view.sell)}</Table.Td>
                <Table.Td ta="right">{formatMoney(t.amount, view.buy)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}
