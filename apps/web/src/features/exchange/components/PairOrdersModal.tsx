/**
 * Admin Console, Cex Control: View Orders of a pair. Buys and Sells tables (created at, initial amount,
 * filled amount, price, state), a Payout button on Placed sell orders (the rest was settled off-platform,
 * DESIGN §5; confirmed first, since it burns the escrow), and a Create order form (side, Quantity, Price)
 * that places an order as the admin. On a phone the dialog is full screen and the tables compact, so
 * every column and the Payout button show without scrolling sideways.
 */

import {
  Button,
  Group,
  Modal,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
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
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatMoney } from '../../../components/Money.tsx';
import { newIdempotencyKey } from '../../../lib/api.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError } from '../../../lib/notify.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useIdempotencyKey } from '../../../lib/use-idempotency-key.ts';
import { payoutOrder, placeOrder, useBook } from '../api/orders.ts';
import { type PairView, usePairView } from '../hooks/use-pair-view.ts';
import { toastServerMessage } from '../utils/messages.ts';

function OrdersTable({
  title,
  orders,
  pair,
  compact,
  onPayout,
  busyId,
}: {
  title: 'Buys' | 'Sells';
  orders: Order[];
  pair: Pair;
  /**
   * Phone: small type, tight cells and the Payout button under the state (no sixth column), so every
   * column and the button show without scrolling sideways.
   */
  compact: boolean;
  onPayout?: (o: Order) => void;
  busyId: string | null;
}) {
  const view = usePairView(pair);
  const actionColumn = Boolean(onPayout) && !compact;
  const columns = actionColumn ? 6 : 5;
  const payoutButton = (o: Order) =>
    onPayout &&
    o.state === ORDER_STATE.Placed && (
      <Button
        size="compact-sm"
        variant="light"
        color="orange"
        loading={busyId === o._id}
        onClick={() => onPayout(o)}
        aria-label={`Payout the sell order of ${orderText(o, view)}`}
      >
        Payout
      </Button>
    );
  return (
    <div>
      <Title order={3} size="h5" mb={4}>
        {title}
      </Title>
      {/* Very large amounts may still overflow: the region then scrolls and takes keyboard focus (axe). */}
      <Table.ScrollContainer
        minWidth={compact ? 0 : 560}
        type="native"
        tabIndex={0}
        role="region"
        aria-label={`${title} (scrollable)`}
      >
        <Table
          aria-label={title}
          striped
          fz={compact ? 'xs' : 'sm'}
          horizontalSpacing={compact ? 6 : 'xs'}
          style={{ fontVariantNumeric: 'tabular-nums' }}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Created at (UTC)</Table.Th>
              <Table.Th ta="right">Initial amount</Table.Th>
              <Table.Th ta="right">Filled amount</Table.Th>
              <Table.Th ta="right">Price</Table.Th>
              <Table.Th>State</Table.Th>
              {actionColumn && (
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {orders.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={columns}>
                  <Text size="sm" c="dimmed">
                    No orders Found
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              orders.map((o) => (
                <Table.Tr key={o._id}>
                  <Table.Td>{formatDate(o.createdAt, true)}</Table.Td>
                  <Table.Td ta="right">{formatMoney(o.initialAmount, view?.buy)}</Table.Td>
                  <Table.Td ta="right">{formatMoney(o.filledAmount, view?.buy)}</Table.Td>
                  <Table.Td ta="right">{formatMoney(o.price, view?.sell)}</Table.Td>
                  <Table.Td>
                    {ORDER_STATE_LABELS[o.state as OrderState] ?? o.state}
                    {compact && onPayout && o.state === ORDER_STATE.Placed && (
                      <Group mt={4} gap={0}>
                        {payoutButton(o)}
                      </Group>
                    )}
                  </Table.Td>
                  {actionColumn && <Table.Td ta="right">{payoutButton(o)}</Table.Td>}
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </div>
  );
}

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

function CreateOrder({ pair, compact }: { pair: Pair; compact: boolean }) {
  const client = useQueryClient();
  const idem = useIdempotencyKey();
  const [side, setSide] = useState<'buy' | 'sell'>('buy');
  const [quantity, setQuantity] = useState('');
  const [price, setPrice] = useState('');
  const [busy, setBusy] = useState(false);
  const filled = quantity.trim() !== '' && price.trim() !== '';
  const submit = async () => {
    const body = { pair: pair._id, buySide: side === 'buy', initialAmount: quantity.trim(), price: price.trim() };
    setBusy(true);
    try {
      const res = await placeOrder(body, idem.keyFor(body));
      idem.reset();
      toastServerMessage(res.message);
      setQuantity('');
      await client.invalidateQueries({ queryKey: queryKeys.exchange.book(pair._id) });
    } catch (err) {
      toastError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  const sideControl = (
    <SegmentedControl
      aria-label="Side"
      value={side}
      onChange={(v) => setSide(v === 'sell' ? 'sell' : 'buy')}
      data={[
        { value: 'buy', label: 'Buy' },
        { value: 'sell', label: 'Sell' },
      ]}
      fullWidth={compact}
    />
  );
  const quantityInput = (
    <TextInput
      label="Quantity"
      inputMode="decimal"
      value={quantity}
      onChange={(e) => setQuantity(e.currentTarget.value)}
      w={compact ? undefined : 140}
    />
  );
  const priceInput = (
    <TextInput
      label="Price"
      inputMode="decimal"
      value={price}
      onChange={(e) => setPrice(e.currentTarget.value)}
      w={compact ? undefined : 140}
    />
  );
  const submitButton = (
    <Button type="submit" disabled={!filled} loading={busy} fullWidth={compact}>
      {filled ? 'Create order' : 'Please fill in all the fields'}
    </Button>
  );
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Title order={3} size="h5" mb={4}>
        Create order
      </Title>
      {compact ? (
        <Stack gap="sm">
          {sideControl}
          <SimpleGrid cols={2} spacing="sm">
            {quantityInput}
            {priceInput}
          </SimpleGrid>
          {submitButton}
        </Stack>
      ) : (
        <Group align="flex-end" gap="sm">
          {sideControl}
          {quantityInput}
          {priceInput}
          {submitButton}
        </Group>
      )}
    </form>
  );
}

function PairOrders({ pair, compact }: { pair: Pair; compact: boolean }) {
  const client = useQueryClient();
  const view = usePairView(pair);
  const book = useBook(pair._id);
  const [busyId, setBusyId] = useState<string | null>(null);
  // The order asked about stays in `asked` while the question fades out, so its text does not blank.
  const [asked, setAsked] = useState<Order | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const ask = (o: Order) => {
    setAsked(o);
    setConfirmOpen(true);
  };
  const payout = async (o: Order) => {
    setConfirmOpen(false);
    setBusyId(o._id);
    try {
      const res = await payoutOrder(o._id, newIdempotencyKey());
      toastServerMessage(res.message);
      await client.invalidateQueries({ queryKey: queryKeys.exchange.book(pair._id) });
    } catch (err) {
      toastError(errorMessage(err));
    } finally {
      setBusyId(null);
    }
  };
  return (
    <Stack gap="md">
      {book.isError && <Text c="red.4">{errorMessage(book.error)}</Text>}
      <OrdersTable title="Buys" orders={book.data?.buys ?? []} pair={pair} compact={compact} busyId={busyId} />
      <OrdersTable
        title="Sells"
        orders={book.data?.sells ?? []}
        pair={pair}
        compact={compact}
        onPayout={ask}
        busyId={busyId}
      />
      <CreateOrder pair={pair} compact={compact} />
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
            <Button color="orange" onClick={() => asked && void payout(asked)}>
              Payout
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

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
