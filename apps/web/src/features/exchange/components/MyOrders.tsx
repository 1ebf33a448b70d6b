/**
 * SPEC §2 Quantum Hub 'my orders': the member's orders sorted by state then creation time, numbers
 * abbreviated (M, B, T, Q), a Cancel button on Placed orders; empty: 'No orders Found'. Live through the
 * socket's `orders` pushes.
 */
import { Badge, Box, Button, Group, Stack, Text } from '@mantine/core';
import {
  abbreviateAmount,
  formatDate,
  fromNumeric,
  ORDER_STATE,
  ORDER_STATE_LABELS,
  type Order,
  type OrderState,
  type Pair,
} from '@starlight/shared';
import { useState } from 'react';
import { useCurrencies } from '../../../lib/currencies.ts';
import { useSession } from '../../../lib/session.ts';
import { useCancelOrder } from '../api/cancel-order.ts';
import { useMyOrders } from '../api/get-user-orders.ts';
import { toastServerMessage } from '../utils/messages.ts';
import { sortMyOrders } from '../utils/order-preview.ts';
import { OrdersTable } from './OrdersTable.tsx';
import { PanelCard, ViewSwitch } from './PanelCard.tsx';

const STATE_COLORS: Record<OrderState, string> = { 1: 'blue', 2: 'gray', 3: 'teal' };

const sideOf = (o: Order) => (o.buySide ? 'Buy' : 'Sell');
/** A Placed order with some of it filled reads `Partly filled`: what a trader checks first. */
const stateOf = (o: Order) =>
  o.state === ORDER_STATE.Placed && fromNumeric(o.filledAmount) > 0n
    ? 'Partly filled'
    : (ORDER_STATE_LABELS[o.state as OrderState] ?? String(o.state));
/** Side and state badges never shrink into an ellipsis: full words, always. */
const WHOLE = { root: { flexShrink: 0, maxWidth: 'none' }, label: { overflow: 'visible' } } as const;

export function MyOrders({ pairs, currentPair }: { pairs: Pair[]; currentPair: string | null }) {
  const user = useSession((s) => s.user);
  const orders = useMyOrders();
  const cancel = useCancelOrder();
  const { byId } = useCurrencies();
  const [scope, setScope] = useState<'pair' | 'all'>('pair');
  if (!user) return null;
  const byPair = new Map(pairs.map((p) => [p._id, p]));
  const tickers = (o: Order) => {
    const pair = byPair.get(o.pair);
    return {
      pair,
      buy: pair ? (byId.get(pair.buyCurrency)?.ticker ?? '') : '',
      sell: pair ? (byId.get(pair.sellCurrency)?.ticker ?? '') : '',
    };
  };
  const shown = sortMyOrders(
    (orders.data ?? []).filter((o) => scope === 'all' || currentPair === null || o.pair === currentPair),
  );
  const cancelOrder = async (o: Order) => {
    try {
      toastServerMessage((await cancel.mutateAsync(o._id)).message);
    } catch {
      // The mutation toasted the failure (useIdempotentMutation).
    }
  };
  return (
    <PanelCard
      id="my-orders-title"
      title="My orders"
      control={
        <ViewSwitch
          label="Which orders"
          value={scope}
          onChange={setScope}
          options={[
            { value: 'pair', label: 'This pair' },
            { value: 'all', label: 'All pairs' },
          ]}
        />
      }
    >
      {orders.isLoading ? (
        <Text c="dimmed">Loading…</Text>
      ) : (
        // A long list scrolls; the region takes keyboard focus so it can be scrolled without a mouse (axe).
        <Box mah={420} style={{ overflowY: 'auto' }} role="region" aria-label="My orders (scrollable)" tabIndex={0}>
          <OrdersTable
            label="My orders"
            orders={shown}
            empty="No orders Found"
            rowLabel={(o) => `${sideOf(o)} order ${stateOf(o)}`}
            columns={[
              {
                // One column for the order, one for its state: the panel is narrow on every screen, so a
                // third column pushed the state and Cancel out of sight on a phone.
                header: 'Order',
                cell: (o) => {
                  const t = tickers(o);
                  return (
                    <Stack gap={2}>
                      <Group gap={6} wrap="nowrap" align="start">
                        <Badge color={o.buySide ? 'teal' : 'red'} variant="light" size="sm" styles={WHOLE}>
                          {sideOf(o)}
                        </Badge>
                        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                          {abbreviateAmount(fromNumeric(o.initialAmount))} {t.buy} @{' '}
                          {abbreviateAmount(fromNumeric(o.price))} {t.sell}
                        </Text>
                      </Group>
                      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                        {t.pair?.name ?? 'Removed pair'} · Filled {abbreviateAmount(fromNumeric(o.filledAmount))}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {formatDate(o.createdAt)}
                      </Text>
                    </Stack>
                  );
                },
              },
              {
                header: 'State',
                align: 'right',
                cell: (o) => (
                  <Stack gap={4} align="flex-end">
                    <Badge color={STATE_COLORS[o.state as OrderState] ?? 'gray'} variant="dot" size="sm" styles={WHOLE}>
                      {stateOf(o)}
                    </Badge>
                    {o.state === ORDER_STATE.Placed && (
                      <Button
                        size="compact-sm"
                        variant="light"
                        color="red"
                        loading={cancel.isPending && cancel.variables === o._id}
                        onClick={() => void cancelOrder(o)}
                      >
                        Cancel
                      </Button>
                    )}
                  </Stack>
                ),
              },
            ]}
          />
        </Box>
      )}
    </PanelCard>
  );
}
