/**
 * SPEC §2 Quantum Hub 'my orders': the member's orders sorted by state then creation time, numbers
 * abbreviated (M, B, T, Q), a Cancel button on Placed orders; empty: 'No orders Found'. Live through the
 * socket's `orders` pushes.
 */
import { Badge, Button, Card, Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
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
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { newIdempotencyKey } from '../../../lib/api.ts';
import { useCurrencies } from '../../../lib/currencies.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError } from '../../../lib/notify.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.ts';
import { cancelOrder, useMyOrders } from '../api/orders.ts';
import { toastServerMessage } from '../utils/messages.ts';
import { sortMyOrders } from '../utils/order-preview.ts';

const STATE_COLORS: Record<OrderState, string> = { 1: 'blue', 2: 'gray', 3: 'teal' };

function OrderRow({ order, pair }: { order: Order; pair: Pair | undefined }) {
  const client = useQueryClient();
  const { byId } = useCurrencies();
  const [busy, setBusy] = useState(false);
  const buyTicker = pair ? (byId.get(pair.buyCurrency)?.ticker ?? '') : '';
  const sellTicker = pair ? (byId.get(pair.sellCurrency)?.ticker ?? '') : '';
  const state = order.state as OrderState;
  const side = order.buySide ? 'Buy' : 'Sell';

  const cancel = async () => {
    setBusy(true);
    try {
      const res = await cancelOrder(order._id, newIdempotencyKey());
      toastServerMessage(res.message);
      await Promise.allSettled([
        client.invalidateQueries({ queryKey: queryKeys.exchange.all }),
        client.invalidateQueries({ queryKey: queryKeys.meAll }),
      ]);
    } catch (err) {
      toastError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder p="xs" radius="sm" role="listitem" aria-label={`${side} order ${ORDER_STATE_LABELS[state]}`}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Group gap={6} wrap="nowrap">
          <Badge color={order.buySide ? 'teal' : 'red'} variant="light" size="sm">
            {side}
          </Badge>
          <Text size="sm" fw={500}>
            {pair?.name ?? 'Removed pair'}
          </Text>
        </Group>
        <Badge color={STATE_COLORS[state] ?? 'gray'} variant="dot" size="sm">
          {ORDER_STATE_LABELS[state] ?? String(order.state)}
        </Badge>
      </Group>
      <Group justify="space-between" gap="xs" mt={4} wrap="nowrap" align="flex-end">
        <div style={{ fontVariantNumeric: 'tabular-nums' }}>
          <Text size="sm">
            {abbreviateAmount(fromNumeric(order.initialAmount))} {buyTicker} @{' '}
            {abbreviateAmount(fromNumeric(order.price))} {sellTicker}
          </Text>
          <Text size="xs" c="dimmed">
            Filled {abbreviateAmount(fromNumeric(order.filledAmount))} · {formatDate(order.createdAt)}
          </Text>
        </div>
        {state === ORDER_STATE.Placed && (
          <Button size="compact-sm" variant="light" color="red" loading={busy} onClick={() => void cancel()}>
            Cancel
          </Button>
        )}
      </Group>
    </Paper>
  );
}

export function MyOrders({ pairs, currentPair }: { pairs: Pair[]; currentPair: string | null }) {
  const user = useSession((s) => s.user);
  const orders = useMyOrders();
  const [scope, setScope] = useState<'pair' | 'all'>('pair');
  if (!user) return null;
  const byPair = new Map(pairs.map((p) => [p._id, p]));
  const shown = sortMyOrders(
    (orders.data ?? []).filter((o) => scope === 'all' || currentPair === null || o.pair === currentPair),
  );
  return (
    <Card withBorder radius="md" component="section" aria-labelledby="my-orders-title">
      <Group justify="space-between" mb="sm" gap="xs">
        <Title order={2} size="h4" id="my-orders-title">
          My orders
        </Title>
        <SegmentedControl
          size="xs"
          aria-label="Which orders"
          value={scope}
          onChange={(v) => setScope(v === 'all' ? 'all' : 'pair')}
          data={[
            { value: 'pair', label: 'This pair' },
            { value: 'all', label: 'All pairs' },
          ]}
        />
      </Group>
      {orders.isLoading ? (
        <Text c="dimmed">Loading…</Text>
      ) : shown.length === 0 ? (
        <Text c="dimmed">No orders Found</Text>
      ) : (
        <Stack gap={6} role="list" aria-label="My orders" mah={420} style={{ overflowY: 'auto' }}>
          {shown.map((o) => (
            <OrderRow key={o._id} order={o} pair={byPair.get(o.pair)} />
          ))}
        </Stack>
      )}
    </Card>
  );
}
