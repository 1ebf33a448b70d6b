/**
 * Admin Console, Cex Control: View Orders of a pair. Buys and Sells tables (created at, initial amount,
 * filled amount, price, state), a Payout button on Placed sell orders (the rest was settled off-platform,
 * DESIGN §5), and a Create order form (side, Quantity, Price) that places an order as the admin.
 */
import {
  Button,
  Group,
  Modal,
  ScrollArea,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { formatDate, ORDER_STATE, ORDER_STATE_LABELS, type Order, type OrderState, type Pair } from '@starlight/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatMoney } from '../../../components/Money.tsx';
import { newIdempotencyKey } from '../../../lib/api.ts';
import { toastError } from '../../../lib/notify.ts';
import { exchangeKeys } from '../api/keys.ts';
import { payoutOrder, placeOrder, useBook } from '../api/orders.ts';
import { useIdempotencyKey } from '../hooks/use-idempotency-key.ts';
import { usePairView } from '../hooks/use-pair-view.ts';
import { errorText, toastServerMessage } from '../utils/messages.ts';

function OrdersTable({
  title,
  orders,
  pair,
  onPayout,
  busyId,
}: {
  title: 'Buys' | 'Sells';
  orders: Order[];
  pair: Pair;
  onPayout?: (o: Order) => void;
  busyId: string | null;
}) {
  const view = usePairView(pair);
  return (
    <div>
      <Title order={3} size="h5" mb={4}>
        {title}
      </Title>
      <ScrollArea>
        <Table aria-label={title} striped miw={560} fz="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Created at (UTC)</Table.Th>
              <Table.Th ta="right">Initial amount</Table.Th>
              <Table.Th ta="right">Filled amount</Table.Th>
              <Table.Th ta="right">Price</Table.Th>
              <Table.Th>State</Table.Th>
              {onPayout && <Table.Th />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {orders.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={onPayout ? 6 : 5}>
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
                  <Table.Td>{ORDER_STATE_LABELS[o.state as OrderState] ?? o.state}</Table.Td>
                  {onPayout && (
                    <Table.Td>
                      {o.state === ORDER_STATE.Placed && (
                        <Button
                          size="compact-xs"
                          variant="light"
                          color="orange"
                          loading={busyId === o._id}
                          onClick={() => onPayout(o)}
                        >
                          Payout
                        </Button>
                      )}
                    </Table.Td>
                  )}
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    </div>
  );
}

function CreateOrder({ pair }: { pair: Pair }) {
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
      await client.invalidateQueries({ queryKey: exchangeKeys.book(pair._id) });
    } catch (err) {
      toastError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
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
      <Group align="flex-end" gap="sm">
        <SegmentedControl
          aria-label="Side"
          value={side}
          onChange={(v) => setSide(v === 'sell' ? 'sell' : 'buy')}
          data={[
            { value: 'buy', label: 'Buy' },
            { value: 'sell', label: 'Sell' },
          ]}
        />
        <TextInput
          label="Quantity"
          inputMode="decimal"
          value={quantity}
          onChange={(e) => setQuantity(e.currentTarget.value)}
          w={140}
        />
        <TextInput
          label="Price"
          inputMode="decimal"
          value={price}
          onChange={(e) => setPrice(e.currentTarget.value)}
          w={140}
        />
        <Button type="submit" disabled={!filled} loading={busy}>
          {filled ? 'Create order' : 'Please fill in all the fields'}
        </Button>
      </Group>
    </form>
  );
}

function PairOrders({ pair }: { pair: Pair }) {
  const client = useQueryClient();
  const book = useBook(pair._id);
  const [busyId, setBusyId] = useState<string | null>(null);
  const payout = async (o: Order) => {
    setBusyId(o._id);
    try {
      const res = await payoutOrder(o._id, newIdempotencyKey());
      toastServerMessage(res.message);
      await client.invalidateQueries({ queryKey: exchangeKeys.book(pair._id) });
    } catch (err) {
      toastError(errorText(err));
    } finally {
      setBusyId(null);
    }
  };
  return (
    <Stack gap="md">
      {book.isError && <Text c="red.4">{errorText(book.error)}</Text>}
      <OrdersTable title="Buys" orders={book.data?.buys ?? []} pair={pair} busyId={busyId} />
      <OrdersTable title="Sells" orders={book.data?.sells ?? []} pair={pair} onPayout={payout} busyId={busyId} />
      <CreateOrder pair={pair} />
    </Stack>
  );
}

export function PairOrdersModal({ pair, onClose }: { pair: Pair | null; onClose: () => void }) {
  return (
    <Modal opened={pair !== null} onClose={onClose} title={pair ? `Orders · ${pair.name}` : 'Orders'} size="xl">
      {pair && <PairOrders pair={pair} />}
    </Modal>
  );
}
