/** The dashboard's open orders: the member's Placed orders on every pair, linking to the Quantum Hub. */
import { Badge, Loader, Text } from '@mantine/core';
import { abbreviateAmount, fromNumeric, ORDER_STATE, type Order } from '@starlight/shared';
import { SummaryCard } from '../../../components/SummaryCard.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { usePairs } from '../api/get-pairs.ts';
import { useMyOrders } from '../api/get-user-orders.ts';
import { sortMyOrders } from '../utils/order-preview.ts';
import { OrdersTable } from './OrdersTable.tsx';

const SHOWN = 5;

export function OpenOrdersSummary() {
  const orders = useMyOrders();
  const pairs = usePairs();
  const { byId } = useCurrencies();
  const byPair = new Map((pairs.data ?? []).map((p) => [p._id, p]));
  const open = sortMyOrders((orders.data ?? []).filter((o) => o.state === ORDER_STATE.Placed));
  const ticker = (o: Order, side: 'buy' | 'sell') => {
    const pair = byPair.get(o.pair);
    return pair ? (byId.get(side === 'buy' ? pair.buyCurrency : pair.sellCurrency)?.ticker ?? '') : '';
  };
  return (
    <SummaryCard title="Open orders" link={{ to: '/quantumhub' }} linkText="Open the Quantum Hub">
      {orders.isPending ? (
        <Loader size="sm" />
      ) : (
        <>
          <OrdersTable
            label="Open orders"
            orders={open.slice(0, SHOWN)}
            empty="No open orders"
            columns={[
              {
                header: 'Side',
                cell: (o) => (
                  <Badge color={o.buySide ? 'teal' : 'red'} variant="light" size="sm">
                    {o.buySide ? 'Buy' : 'Sell'}
                  </Badge>
                ),
              },
              { header: 'Pair', cell: (o) => byPair.get(o.pair)?.name ?? 'Removed pair' },
              {
                header: 'Amount @ price',
                align: 'right',
                cell: (o) =>
                  `${abbreviateAmount(fromNumeric(o.initialAmount))} ${ticker(o, 'buy')} @ ${abbreviateAmount(fromNumeric(o.price))} ${ticker(o, 'sell')}`,
              },
            ]}
          />
          {open.length > SHOWN && (
            <Text size="xs" c="dimmed" mt="xs">
              and {open.length - SHOWN} more
            </Text>
          )}
        </>
      )}
    </SummaryCard>
  );
}
