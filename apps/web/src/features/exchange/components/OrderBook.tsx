/**
 * SPEC §2 Quantum Hub: the book of the selected pair, by default grouped by price level (from depth: price,
 * quantity and order count, best first), or as the individual open orders; each side in a panel of capped
 * height that scrolls. Live through the socket's `book` pushes.
 */
import { SimpleGrid, Table, Text, Title } from '@mantine/core';
import { type DepthLevel, fromNumeric, type Order, toDecimalString } from '@starlight/shared';
import { useState } from 'react';
import { formatMoney } from '../../../components/Money.tsx';
import { useSession } from '../../../lib/session.ts';
import { useDepth } from '../api/get-depth.ts';
import { useBook } from '../api/get-orders.ts';
import type { PairView } from '../hooks/use-pair-view.ts';
import { OrdersTable, ScrollRegion } from './OrdersTable.tsx';
import { PanelCard, ViewSwitch } from './PanelCard.tsx';

/** How many price levels a side the book shows (the depth query holds more, for the depth chart). */
export const BOOK_LEVELS = 20;
/** The height of a side's panel (pixels): about ten rows, the rest scrolls. */
const BOOK_HEIGHT = 330;

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
  onPick: ((price: string) => void) | undefined;
}) {
  const color = side === 'buy' ? 'teal.4' : 'red.4';
  const label = side === 'buy' ? 'Buy orders' : 'Sell orders';
  return (
    <OrdersTable
      scrollHeight={BOOK_HEIGHT}
      label={label}
      title={side === 'buy' ? 'Buys' : 'Sells'}
      titleColor={color}
      orders={orders}
      empty={`No ${side} orders`}
      onRowClick={onPick && ((o) => onPick(toDecimalString(fromNumeric(o.price))))}
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

function LevelsTable({
  side,
  levels,
  view,
  onPick,
}: {
  side: 'buy' | 'sell';
  levels: DepthLevel[];
  view: PairView;
  onPick: ((price: string) => void) | undefined;
}) {
  const color = side === 'buy' ? 'teal.4' : 'red.4';
  const label = side === 'buy' ? 'Buy price levels' : 'Sell price levels';
  return (
    <div>
      <Title order={3} size="h5" mb={4} c={color}>
        {side === 'buy' ? 'Buys' : 'Sells'} by price
      </Title>
      <ScrollRegion label={label} maxHeight={BOOK_HEIGHT}>
        <Table aria-label={label} striped highlightOnHover={Boolean(onPick)} verticalSpacing={4} fz="sm">
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
                <Table.Tr
                  key={l.price}
                  onClick={onPick && (() => onPick(toDecimalString(fromNumeric(l.price))))}
                  style={{ fontVariantNumeric: 'tabular-nums', cursor: onPick ? 'pointer' : undefined }}
                >
                  <Table.Td c={color}>{formatMoney(l.price, view.sell)}</Table.Td>
                  <Table.Td ta="right">{formatMoney(l.amount, view.buy)}</Table.Td>
                  <Table.Td ta="right">{l.orders.toLocaleString('en-GB')}</Table.Td>
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </ScrollRegion>
    </div>
  );
}

/**
 * The book panel: by price level by default (at most `BOOK_LEVELS` a side), or the individual orders.
 * Clicking a level or an order copies its price into the order form, when there is one (signed in).
 */
export function OrderBook({ view, onPick }: { view: PairView; onPick: (price: string) => void }) {
  const [mode, setMode] = useState<'orders' | 'levels'>('levels');
  const signedIn = useSession((s) => s.user) !== null;
  const pick = signedIn ? onPick : undefined;
  const depth = useDepth(view.pair._id);
  const book = useBook(mode === 'orders' ? view.pair._id : null);
  const loading = mode === 'orders' ? book.isLoading : depth.isLoading;
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
            { value: 'levels', label: 'By price level' },
            { value: 'orders', label: 'Orders' },
          ]}
        />
      }
    >
      {loading ? (
        <Text c="dimmed">Loading orders…</Text>
      ) : mode === 'orders' ? (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <BookSide side="sell" orders={book.data?.sells ?? []} view={view} onPick={pick} />
          <BookSide side="buy" orders={book.data?.buys ?? []} view={view} onPick={pick} />
        </SimpleGrid>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <LevelsTable side="sell" levels={(depth.data?.sells ?? []).slice(0, BOOK_LEVELS)} view={view} onPick={pick} />
          <LevelsTable side="buy" levels={(depth.data?.buys ?? []).slice(0, BOOK_LEVELS)} view={view} onPick={pick} />
        </SimpleGrid>
      )}
      {signedIn && (
        <Text size="xs" c="dimmed" mt="xs">
          {mode === 'levels' ? 'Click a price level' : 'Click an order'} to copy its price into the form.
        </Text>
      )}
    </PanelCard>
  );
}
