/**
 * The dashboard's open orders: the member's newest Placed orders on every pair (one page of five), linking
 * to the Quantum Hub, and "and N more" to the Hub's My orders.
 */
import { Anchor, Badge, Loader, Text } from '@mantine/core';
import { abbreviateAmount, formatTotal, fromNumeric, ORDER_STATE, type Order } from '@starlight/shared';
import { Link } from '@tanstack/react-router';
import { SummaryCard } from '../../../components/SummaryCard.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { useMyOrdersPage } from '../api/get-my-orders-page.ts';
import { usePairs } from '../api/get-pairs.ts';
import { MY_ORDERS_HASH, OrdersTable, WHOLE } from './OrdersTable.tsx';

const SHOWN = 5;

export function OpenOrdersSummary() {
  const orders = useMyOrdersPage({ state: ORDER_STATE.Placed, paging: { limit: SHOWN, page: 1 } });
  const pairs = usePairs();
  const { byId } = useCurrencies();
  const byPair = new Map((pairs.data ?? []).map((p) => [p._id, p]));
  const open = orders.data?.orders ?? [];
  const more = (orders.data?.total ?? 0) - open.length;
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
            orders={open}
            empty="No open orders"
            columns={[
              {
                header: 'Side',
                cell: (o) => (
                  <Badge color={o.buySide ? 'teal' : 'red'} variant="light" size="sm" styles={WHOLE}>
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
          {more > 0 && (
            <Text size="xs" mt="xs">
              <Anchor component={Link} to="/quantumhub" hash={MY_ORDERS_HASH}>
                and {formatTotal(more, orders.data?.totalCapped ?? false)} more
              </Anchor>
            </Text>
          )}
        </>
      )}
    </SummaryCard>
  );
}
