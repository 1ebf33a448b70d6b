/**
 * SPEC §2 Quantum Hub: the buy and sell lists of the selected pair (open orders, best price first), and
 * the same book grouped by price level (from depth). Live through the socket's `book` pushes.
 */
import { SimpleGrid, Table, Text, Title } from '@mantine/core';
import { type DepthLevel, formatTotal, fromNumeric, type Order, toDecimalString } from '@starlight/shared';
import { useState } from 'react';
import { formatMoney } from '../../../components/Money.tsx';
import { useDepth } from '../api/get-depth.ts';
import { useBook } from '../api/get-orders.ts';
import type { PairView } from '../hooks/use-pair-view.ts';
import { OrdersTable } from './OrdersTable.tsx';
import { PanelCard, ViewSwitch } from './PanelCard.tsx';

/** The unfilled quantity of an order, as a decimal string. */
function remainingOf(o: Order): string {
  return toDecimalString(fromNumeric(o.initialAmount) - fromNumeric(o.filledAmount));
}

function BookSide({
  side,
  orders,
  view,
  onPick,
}: {
  side: 'buy' | 'sell';
  orders: Order[];
  view: PairView;
  onPick: (price: string) => void;
}) {
  const color = side === 'buy' ? 'teal.4' : 'red.4';
  return (
    <OrdersTable
      label={side === 'buy' ? 'Buy orders' : 'Sell orders'}
      title={side === 'buy' ? 'Buys' : 'Sells'}
      titleColor={color}
      orders={orders}
      empty={`No ${side} orders`}
      onRowClick={(o) => onPick(toDecimalString(fromNumeric(o.price)))}
      columns={[
        { header: `Price (${view.sellTicker})`, color, cell: (o) => formatMoney(o.price, view.sell) },
        {
          header: `Quantity (${view.buyTicker})`,
          align: 'right',
          cell: (o) => formatMoney(remainingOf(o), view.buy),
        },
      ]}
    />
  );
}

function LevelsTable({ side, levels, view }: { side: 'buy' | 'sell'; levels: DepthLevel[]; view: PairView }) {
  const color = side === 'buy' ? 'teal.4' : 'red.4';
  return (
    <div>
      <Title order={3} size="h5" mb={4} c={color}>
        {side === 'buy' ? 'Buys' : 'Sells'} by price
      </Title>
      <Table aria-label={side === 'buy' ? 'Buy price levels' : 'Sell price levels'} striped verticalSpacing={4} fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Price ({view.sellTicker})</Table.Th>
            <Table.Th ta="right">Quantity ({view.buyTicker})</Table.Th>
            <Table.Th ta="right">Orders</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {levels.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={3}>
                <Text size="sm" c="dimmed">
                  No {side} orders
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : (
            levels.map((l) => (
              <Table.Tr key={l.price} style={{ fontVariantNumeric: 'tabular-nums' }}>
                <Table.Td c={color}>{formatMoney(l.price, view.sell)}</Table.Td>
                <Table.Td ta="right">{formatMoney(l.amount, view.buy)}</Table.Td>
                <Table.Td ta="right">{formatTotal(l.orders)}</Table.Td>
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
    </div>
  );
}

export function OrderBook({ view, onPick }: { view: PairView; onPick: (price: string) => void }) {
  const [mode, setMode] = useState<'orders' | 'levels'>('orders');
  const book = useBook(view.pair._id);
  const depth = useDepth(mode === 'levels' ? view.pair._id : null);
  return (
    <PanelCard
      id="order-book-title"
      title="Order book"
      control={
        <ViewSwitch
          label="Order book view"
          value={mode}
          onChange={setMode}
          options={[
            { value: 'orders', label: 'Orders' },
            { value: 'levels', label: 'By price level' },
          ]}
        />
      }
    >
      {book.isLoading ? (
        <Text c="dimmed">Loading orders…</Text>
      ) : mode === 'orders' ? (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <BookSide side="sell" orders={book.data?.sells ?? []} view={view} onPick={onPick} />
          <BookSide side="buy" orders={book.data?.buys ?? []} view={view} onPick={onPick} />
        </SimpleGrid>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <LevelsTable side="sell" levels={depth.data?.sells ?? []} view={view} />
          <LevelsTable side="buy" levels={depth.data?.buys ?? []} view={view} />
        </SimpleGrid>
      )}
      <Text size="xs" c="dimmed" mt="xs">
        Click an order to copy its price into the form.
      </Text>
    </PanelCard>
  );
}
