/**
 * Admin Console, Cex Control: View Orders of a pair. Buys and Sells tables (created at, initial amount,
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
import { errorMessage } from '../../../lib/errors.ts';
import { useBook } from '../api/get-orders.ts';
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

function PairOrders({ pair, compact }: { pair: Pair; compact: boolean }) {
  const view = usePairView(pair);
  const book = useBook(pair._id);
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
  const table = (title: 'Buys' | 'Sells', orders: Order[], withPayout: boolean) => (
    <OrdersTable
      label={title}
      title={title}
      orders={orders}
      empty="No orders Found"
      columns={columns(withPayout)}
      // Very large amounts may still overflow: the region then scrolls and takes keyboard focus (axe).
      scroll={{ minWidth: compact ? 0 : 560 }}
      fz={compact ? 'xs' : 'sm'}
      horizontalSpacing={compact ? 6 : 'xs'}
    />
  );
  return (
    <Stack gap="md">
      {book.isError && <Text c="red.4">{errorMessage(book.error)}</Text>}
      {table('Buys', book.data?.buys ?? [], false)}
      {table('Sells', book.data?.sells ?? [], true)}
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
