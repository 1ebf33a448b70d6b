/**
 * SPEC §2 Quantum Hub create-order form: side, quantity and price; the button stays disabled and reads
 * 'Please fill in all the fields' until all three are filled. A live preview of the escrow, the fee and
 * the proceeds (bigint math, utils/order-preview.ts). Signed out: a prompt to log in instead.
 */
import { Alert, Anchor, Button, Card, Group, Radio, Stack, Text, TextInput, Title } from '@mantine/core';
import { type Currency, formatAmount, fromNumeric } from '@starlight/shared';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { formatMoney } from '../../../components/Money.tsx';
import { fractionToPercent } from '../../../lib/percent.ts';
import { useSession } from '../../../lib/session.ts';
import { usePlaceOrder } from '../api/place-order.ts';
import type { PairView } from '../hooks/use-pair-view.ts';
import { toastServerMessage } from '../utils/messages.ts';
import { previewOrder } from '../utils/order-preview.ts';

type Side = '' | 'buy' | 'sell';

function amountText(units: bigint, currency: Currency | undefined): string {
  return formatMoney(formatAmount(units), currency);
}

function PreviewRow({ label, value }: { label: string; value: string }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} style={{ fontVariantNumeric: 'tabular-nums', textAlign: 'right' }}>
        {value}
      </Text>
    </Group>
  );
}

export function OrderForm({
  view,
  pickedPrice = null,
}: {
  view: PairView;
  /** A price picked from the book (`at` makes picking the same price twice count). */
  pickedPrice?: { price: string; at: number } | null;
}) {
  const user = useSession((s) => s.user);
  const place = usePlaceOrder();
  const [side, setSide] = useState<Side>('');
  const [quantity, setQuantity] = useState('');
  const [price, setPrice] = useState('');
  const { pair, buy, sell, buyTicker, sellTicker } = view;

  useEffect(() => {
    if (pickedPrice) setPrice(pickedPrice.price);
  }, [pickedPrice]);

  if (!user) {
    return (
      <Card withBorder radius="md" component="section" aria-labelledby="order-form-title">
        <Title order={2} size="h4" id="order-form-title" mb="xs">
          Create order
        </Title>
        <Text>
          <Anchor component={Link} to="/login">
            Log in
          </Anchor>{' '}
          to place orders on the Quantum Hub.
        </Text>
      </Card>
    );
  }

  const filled = side !== '' && quantity.trim() !== '' && price.trim() !== '';
  const buySide = side === 'buy';
  const preview = filled
    ? previewOrder({
        buySide,
        quantity,
        price,
        fee: pair.fee,
        buyPrecision: buy?.precision ?? 9,
        sellPrecision: sell?.precision ?? 9,
      })
    : null;
  const payCurrency = buySide ? sell : buy;
  const balance = user.balances.find((b) => b.currencyId === payCurrency?.currencyId)?.amount ?? '0';
  const short = preview !== null && preview.escrow > fromNumeric(balance);
  const sideAllowed = side === '' || (buySide ? pair.canBuy : pair.canSell);

  const submit = async () => {
    if (!filled) return;
    const body = { pair: pair._id, buySide, initialAmount: quantity.trim(), price: price.trim() };
    try {
      const res = await place.mutateAsync(body);
      toastServerMessage(res.message);
      setQuantity('');
    } catch {
      // The mutation toasted the failure (useIdempotentMutation).
    }
  };

  return (
    <Card withBorder radius="md" component="section" aria-labelledby="order-form-title">
      <Title order={2} size="h4" id="order-form-title" mb="xs">
        Create order
      </Title>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          {pair.frozen && (
            <Alert color="yellow" variant="light" title="Trading is frozen">
              {pair.frozenNote || 'This pair is frozen.'}
            </Alert>
          )}
          <Radio.Group label="Side" value={side} onChange={(v) => setSide(v === 'buy' || v === 'sell' ? v : '')}>
            <Group gap="lg" mt={4}>
              <Radio value="buy" label={`Buy ${buyTicker}`} disabled={!pair.canBuy} color="teal" />
              <Radio value="sell" label={`Sell ${buyTicker}`} disabled={!pair.canSell} color="red" />
            </Group>
          </Radio.Group>
          <TextInput
            label="Quantity"
            description={`${buyTicker} to ${buySide ? 'buy' : side === 'sell' ? 'sell' : 'trade'}`}
            inputMode="decimal"
            autoComplete="off"
            value={quantity}
            onChange={(e) => setQuantity(e.currentTarget.value)}
            rightSection={<Text size="xs">{buyTicker}</Text>}
            rightSectionWidth={56}
          />
          <TextInput
            label="Price"
            description={`${sellTicker} per 1 ${buyTicker}`}
            inputMode="decimal"
            autoComplete="off"
            value={price}
            onChange={(e) => setPrice(e.currentTarget.value)}
            rightSection={<Text size="xs">{sellTicker}</Text>}
            rightSectionWidth={56}
          />
          {filled && preview === null && (
            <Text size="sm" c="red.4">
              Quantity and price must be plain numbers of at least 0.01.
            </Text>
          )}
          {preview && (
            <Stack gap={2} p="xs" bg="var(--mantine-color-dark-6)" style={{ borderRadius: 8 }} aria-live="polite">
              <PreviewRow
                label={buySide ? 'Cost (escrowed)' : 'Escrowed'}
                value={`${amountText(preview.escrow, buySide ? sell : buy)} ${buySide ? sellTicker : buyTicker}`}
              />
              <PreviewRow
                label={`Fee (${fractionToPercent(pair.fee)}%)`}
                value={`${amountText(preview.fee, buySide ? buy : sell)} ${buySide ? buyTicker : sellTicker}`}
              />
              <PreviewRow
                label="You receive"
                value={`${amountText(preview.proceeds, buySide ? buy : sell)} ${buySide ? buyTicker : sellTicker}`}
              />
              <Text size="xs" c="dimmed">
                When filled at your price; a better resting price returns the difference.
              </Text>
            </Stack>
          )}
          {side !== '' && (
            <Text size="xs" c={short ? 'red.4' : 'dimmed'}>
              Available: {formatMoney(balance, payCurrency)} {buySide ? sellTicker : buyTicker}
              {short ? ' (not enough)' : ''}
            </Text>
          )}
          <Button
            type="submit"
            disabled={!filled || !sideAllowed || pair.frozen}
            loading={place.isPending}
            color={side === 'sell' ? 'red' : side === 'buy' ? 'teal' : undefined}
            fullWidth
          >
            {!filled ? 'Please fill in all the fields' : buySide ? `Buy ${buyTicker}` : `Sell ${buyTicker}`}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
