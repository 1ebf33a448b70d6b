/**
 * Admin Console, Cex Control: View Orders of a pair. Buys and Sells tables, each a page of twenty open orders
 * in price-time priority with its paging (created at, initial amount,
 * filled amount, price, state), a Payout button on Placed sell orders (the rest was settled off-platform,
 * DESIGN §5; confirmed first, since it burns the escrow), and the Quantum Hub's own create-order form,
 * which places an order as the admin. On a phone the dialog is full screen and the tables compact, so
 * every column and the Payout button show without scrolling sideways.
 */
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  formatDate,
  fromNumeric,
  ORDER_STATE,
  ORDER_STATE_LABELS,
  type Order,
  type OrderState,
  type Pair,
  toDecimalString,
} from '@starlight/shared';
import { useState } from 'react';
import { formatMoney } from '../../../components/Money.tsx';
import { Paging } from '../../../components/Paging.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { useBookPage } from '../api/get-book-page.ts';
import { usePayoutOrder } from '../api/payout-order.ts';
import { type PairView, usePairView } from '../hooks/use-pair-view.ts';
import { toastServerMessage } from '../utils/messages.ts';
import { OrderForm } from './OrderForm.tsx';
import { type OrderColumn, OrdersTable } from './OrdersTable.tsx';

/** "7.25 SD at 3.50 SN": an order's initial amount and price with their tickers. */
function orderText(o: Order, view: PairView | null): string {
  return `${formatMoney(o.initialAmount, view?.buy)} ${view?.buyTicker ?? ''} at ${formatMoney(o.price, view?.sell)} ${view?.sellTicker ?? ''}`.replace(
    /\s+/g,
    ' ',
  );
}

/** The rest of a sell order still in escrow (initial less filled), in the pair's buy currency. */
function restText(o: Order, view: PairView | null): string {
  const rest = toDecimalString(fromNumeric(o.initialAmount) - fromNumeric(o.filledAmount));
  return `${formatMoney(rest, view?.buy)} ${view?.buyTicker ?? ''}`.trim();
}

/** Orders a page of each side. */
const PAGE_SIZE = 20;

/** One side's page of the book and its paging. */
function useSidePage(pair: string, buySide: boolean) {
  const [page, setPage] = useState(1);
  const query = useBookPage({ pair, buySide, paging: { limit: PAGE_SIZE, page } });
  return { query, page, setPage };
}

function PairOrders({ pair, compact }: { pair: Pair; compact: boolean }) {
  const view = usePairView(pair);
  const buys = useSidePage(pair._id, true);
  const sells = useSidePage(pair._id, false);
  const payout = usePayoutOrder();
  // The order asked about stays in `asked` while the question fades out, so its text does not blank.
  const [asked, setAsked] = useState<Order | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const ask = (o: Order) => {
    setAsked(o);
    setConfirmOpen(true);
  };
  const confirmPayout = async (o: Order) => {
    setConfirmOpen(false);
    try {
      toastServerMessage((await payout.mutateAsync(o._id)).message);
    } catch {
      // The mutation toasted the failure (useIdempotentMutation).
    }
  };
  const payoutButton = (o: Order) =>
    o.state === ORDER_STATE.Placed && (
      <Button
        size="compact-sm"
        variant="light"
        color="orange"
        loading={payout.isPending && payout.variables === o._id}
        onClick={() => ask(o)}
        aria-label={`Payout the sell order of ${orderText(o, view)}`}
      >
        Payout
      </Button>
    );
  const state = (o: Order) => ORDER_STATE_LABELS[o.state as OrderState] ?? o.state;
  const columns = (withPayout: boolean): OrderColumn[] => [
    { header: 'Created at (UTC)', cell: (o) => formatDate(o.createdAt, true) },
    { header: 'Initial amount', align: 'right', cell: (o) => formatMoney(o.initialAmount, view?.buy) },
    { header: 'Filled amount', align: 'right', cell: (o) => formatMoney(o.filledAmount, view?.buy) },
    { header: 'Price', align: 'right', cell: (o) => formatMoney(o.price, view?.sell) },
    // Phone: the Payout button under the state (no sixth column), so nothing needs a sideways scroll.
    {
      header: 'State',
      cell: (o) => (
        <>
          {state(o)}
          {withPayout && compact && (
            <Group mt={4} gap={0}>
              {payoutButton(o)}
            </Group>
          )}
        </>
      ),
    },
    ...(withPayout && !compact
      ? [{ header: 'Actions', hiddenHeader: true, align: 'right' as const, cell: payoutButton }]
      : []),
  ];
  const table = (title: 'Buys' | 'Sells', side: ReturnType<typeof useSidePage>, withPayout: boolean) => (
    <Stack gap={4}>
      {side.query.isError && <Text c="red.4">{errorMessage(side.query.error)}</Text>}
      <OrdersTable
        label={title}
        title={title}
        orders={side.query.data?.orders ?? []}
        empty={side.query.isPending ? 'Loading…' : 'No orders Found'}
        columns={columns(withPayout)}
        // Very large amounts may still overflow: the region then scrolls and takes keyboard focus (axe).
        scroll={{ minWidth: compact ? 0 : 560 }}
        fz={compact ? 'xs' : 'sm'}
        horizontalSpacing={compact ? 6 : 'xs'}
      />
      {(side.query.data?.total ?? 0) > PAGE_SIZE && (
        <Paging
          page={side.page}
          limit={PAGE_SIZE}
          total={side.query.data?.total ?? 0}
          totalCapped={side.query.data?.totalCapped ?? false}
          onPage={side.setPage}
        />
      )}
    </Stack>
  );
  return (
    <Stack gap="md">
      {table('Buys', buys, false)}
      {table('Sells', sells, true)}
      {view && <OrderForm view={view} />}
      {/* Paying out burns the member's escrow for good: the admin confirms first (like Delete pair). In the
          modal stack, Escape closes this question only, not View Orders beneath it. */}
      <Modal
        stackId="payout-confirm"
        opened={confirmOpen}
        onClose={() => setConfirmOpen(false)}
        title="Payout Sell Order"
        size="sm"
      >
        <Stack gap="sm">
          <Text size="sm">
            Pay out the sell order of {asked ? orderText(asked, view) : ''}? Only do this once the member has been paid
            outside the platform: the {asked ? restText(asked, view) : ''} still in escrow are burned and the order
            becomes Filled.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmOpen(false)}>
              Keep it
            </Button>
            <Button color="orange" onClick={() => asked && void confirmPayout(asked)}>
              Payout
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** The View Orders dialog of `pair` (closed while null). */
export function PairOrdersModal({ pair, onClose }: { pair: Pair | null; onClose: () => void }) {
  const isPhone = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  return (
    <Modal.Stack>
      <Modal
        stackId="pair-orders"
        opened={pair !== null}
        onClose={onClose}
        title={pair ? `Orders · ${pair.name}` : 'Orders'}
        size="xl"
        fullScreen={isPhone}
      >
        {pair && <PairOrders pair={pair} compact={isPhone} />}
      </Modal>
    </Modal.Stack>
  );
}
