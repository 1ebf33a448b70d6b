/**
 * SPEC §2 Quantum Hub 'my orders': the member's orders of one state (Open, Stops: stop-limit orders waiting
 * Untriggered, Filled, Cancelled: DESIGN §11.4) on this pair or every pair, newest first, a page at a time;
 * numbers abbreviated (M, B, T, Q), each order's type (a stop-limit order's stop price), a Cancel button on
 * Placed and Untriggered orders and Cancel all for the pair or every pair shown (DESIGN §11.4); empty: 'No orders Found'. The socket's `orders` pushes refetch the page.
 */
import { Badge, Button, Group, SegmentedControl, Stack, Text } from '@mantine/core';
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
import { useEffect, useState } from 'react';
import { Paging } from '../../../components/Paging.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { useSession } from '../../../lib/session.ts';
import { useCancelOrder } from '../api/cancel-order.ts';
import { useMyOrdersPage } from '../api/get-my-orders-page.ts';
import { toastServerMessage } from '../utils/messages.ts';
import { CancelAllOrders } from './CancelAllOrders.tsx';
import { MY_ORDERS_HASH, OrdersTable, ScrollRegion, WHOLE } from './OrdersTable.tsx';
import { PanelCard, ViewSwitch } from './PanelCard.tsx';

const STATE_COLORS: Record<OrderState, string> = { 1: 'blue', 2: 'gray', 3: 'teal', 5: 'yellow' };

const sideOf = (o: Order) => (o.buySide ? 'Buy' : 'Sell');
/**
 * A Placed order with some of it filled reads `Partly filled`: what a trader checks first; a good-till-date
 * order the server cancelled at its time reads `Expired` (DESIGN §11.4).
 */
const stateOf = (o: Order) =>
  o.expired
    ? 'Expired'
    : o.state === ORDER_STATE.Placed && fromNumeric(o.filledAmount) > 0n
      ? 'Partly filled'
      : (ORDER_STATE_LABELS[o.state as OrderState] ?? String(o.state));
const colorOf = (o: Order) => (o.expired ? 'orange' : (STATE_COLORS[o.state as OrderState] ?? 'gray'));

/** The id of My orders' heading: the section's name and the target of links to it. */
const MY_ORDERS_ID = 'my-orders-title';

/** The states My orders filters by, as the server numbers them (SPEC §3). */
const FILTERS = [
  { value: String(ORDER_STATE.Placed), label: 'Open' },
  { value: String(ORDER_STATE.Untriggered), label: 'Stops' },
  { value: String(ORDER_STATE.Filled), label: 'Filled' },
  { value: String(ORDER_STATE.Cancelled), label: 'Cancelled' },
] as const;
type Filter = (typeof FILTERS)[number]['value'];

/** Orders a page. */
const PAGE_SIZE = 10;

const arrivedByLink = () => window.location.hash === `#${MY_ORDERS_HASH}`;

/**
 * The order's type and time in force as My orders shows them (DESIGN §11.4): "Market · IOC", "Limit · GTC ·
 * Post-only", "Stop-limit at 2.00 · GTC" (with its stop price, in the pair's sell currency `sell`).
 */
function orderKind(o: Order, sell: string): string {
  const type =
    o.type === 'market'
      ? 'Market'
      : o.type === 'stop_limit'
        ? `Stop-limit at ${abbreviateAmount(fromNumeric(o.stopPrice ?? '0'))} ${sell}`.trim()
        : 'Limit';
  const parts = [type, o.timeInForce];
  if (o.postOnly) parts.push('Post-only');
  if (o.expiresAt) parts.push(`${o.expired ? 'Expired' : 'Expires'} ${formatDate(o.expiresAt)}`);
  return parts.join(' · ');
}

export function MyOrders({ pairs, currentPair }: { pairs: Pair[]; currentPair: string | null }) {
  const user = useSession((s) => s.user);
  const [scope, setScope] = useState<'pair' | 'all'>(() => (arrivedByLink() ? 'all' : 'pair'));
  const [filter, setFilter] = useState<Filter>(FILTERS[0].value);
  const [page, setPage] = useState(1);
  const pair = scope === 'pair' && currentPair !== null ? currentPair : undefined;
  const orders = useMyOrdersPage({
    state: Number(filter) as OrderState,
    ...(pair ? { pair } : {}),
    paging: { limit: PAGE_SIZE, page },
  });
  const cancel = useCancelOrder();
  const { byId } = useCurrencies();
  const loaded = orders.data !== undefined;
  // Arriving from the dashboard's link: bring the list into view once it has rows.
  useEffect(() => {
    if (loaded && arrivedByLink()) document.getElementById(MY_ORDERS_ID)?.scrollIntoView();
  }, [loaded]);
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
  const shown = orders.data?.orders ?? [];
  const cancelOrder = async (o: Order) => {
    try {
      toastServerMessage((await cancel.mutateAsync(o._id)).message);
    } catch {
      // The mutation toasted the failure (useIdempotentMutation).
    }
  };
  const paging = (
    <Paging
      page={page}
      limit={PAGE_SIZE}
      total={orders.data?.total ?? 0}
      totalCapped={orders.data?.totalCapped ?? false}
      onPage={setPage}
    />
  );
  return (
    <PanelCard
      id={MY_ORDERS_ID}
      title="My orders"
      control={
        <ViewSwitch
          label="Which pairs"
          value={scope}
          onChange={(v) => {
            setScope(v);
            setPage(1);
          }}
          options={[
            { value: 'pair', label: 'This pair' },
            { value: 'all', label: 'All pairs' },
          ]}
        />
      }
    >
      {/* Four states and Cancel all do not fit a phone's panel on one line: Cancel all then wraps below. */}
      <Group gap="xs" mb="xs" justify="space-between">
        <SegmentedControl
          size="xs"
          style={{ flex: '1 0 auto' }}
          aria-label="Which orders"
          value={filter}
          onChange={(v) => {
            setFilter(FILTERS.find((f) => f.value === v)?.value ?? filter);
            setPage(1);
          }}
          data={[...FILTERS]}
        />
        <CancelAllOrders pair={pair} pairName={pair ? byPair.get(pair)?.name : undefined} pageSize={PAGE_SIZE} />
      </Group>
      {orders.isError ? (
        <Text c="red.4">{errorMessage(orders.error)}</Text>
      ) : !loaded ? (
        <Text c="dimmed">Loading…</Text>
      ) : (
        <Stack gap="xs">
          <ScrollRegion label="My orders" maxHeight={420}>
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
                          {orderKind(o, t.sell)}
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
                      <Badge color={colorOf(o)} variant="dot" size="sm" styles={WHOLE}>
                        {stateOf(o)}
                      </Badge>
                      {(o.state === ORDER_STATE.Placed || o.state === ORDER_STATE.Untriggered) && (
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
          </ScrollRegion>
          {shown.length > 0 && paging}
        </Stack>
      )}
    </PanelCard>
  );
}
