/**
 * SPEC §2 Quantum Hub create-order form: side, quantity and price; the button stays disabled and reads
 * 'Please fill in all the fields' until all three are filled. DESIGN §11.4: the order type (limit, market:
 * no price field, or stop-limit: a stop price field too), time in force, post-only and an optional expiry,
 * each with one line saying what it does. A live preview of the escrow, the fee and the proceeds (bigint
 * math, utils/order-preview.ts); for a market order the expected average price and slippage from the book
 * (`MarketEstimate`). Signed out: a prompt to log in instead.
 */
import {
  Alert,
  Anchor,
  Button,
  Card,
  Checkbox,
  Group,
  Radio,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  type Currency,
  formatAmount,
  fromNumeric,
  ORDER_TYPES,
  type OrderType,
  type TimeInForce,
} from '@starlight/shared';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { formatMoney } from '../../../components/Money.tsx';
import { fractionToPercent } from '../../../lib/percent.ts';
import { useSession } from '../../../lib/session.ts';
import { usePlaceOrder } from '../api/place-order.ts';
import type { PairView } from '../hooks/use-pair-view.ts';
import { toastServerMessage } from '../utils/messages.ts';
import { previewOrder } from '../utils/order-preview.ts';
import { MarketEstimate } from './MarketEstimate.tsx';
import { PreviewRow } from './PreviewRow.tsx';

type Side = '' | 'buy' | 'sell';

const TYPE_OPTIONS = [
  { value: 'limit', label: 'Limit' },
  { value: 'market', label: 'Market' },
  { value: 'stop_limit', label: 'Stop-limit' },
];
const TYPE_HELP: Record<OrderType, string> = {
  limit: 'Trades at your price or better; the rest waits on the book.',
  market: 'Trades at once at the best prices on the book; what does not fill is cancelled.',
  stop_limit: 'Waits until a trade at or past the stop price, then places a limit order.',
};
const TIF_OPTIONS = [
  { value: 'GTC', label: 'Good till cancelled' },
  { value: 'IOC', label: 'Immediate or cancel' },
  { value: 'FOK', label: 'Fill or kill' },
];
const TIF_HELP: Record<TimeInForce, string> = {
  GTC: 'Rests on the book until it fills, you cancel it or it expires.',
  IOC: 'Fills what it can at once; the rest is cancelled.',
  FOK: 'Fills in full at once, or is refused and nothing changes.',
};

function amountText(units: bigint, currency: Currency | undefined): string {
  return formatMoney(formatAmount(units), currency);
}

/** A decimal field of the form with its currency's ticker inside, on the right. */
function AmountInput(props: {
  label: string;
  description: string;
  unit: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <TextInput
      label={props.label}
      description={props.description}
      inputMode="decimal"
      autoComplete="off"
      value={props.value}
      onChange={(e) => props.onChange(e.currentTarget.value)}
      rightSection={<Text size="xs">{props.unit}</Text>}
      rightSectionWidth={56}
    />
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
  const [stopPrice, setStopPrice] = useState('');
  const [type, setType] = useState<OrderType>('limit');
  const [tif, setTif] = useState<TimeInForce>('GTC');
  const [postOnly, setPostOnly] = useState(false);
  const [expiry, setExpiry] = useState('');
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

  const market = type === 'market';
  const stop = type === 'stop_limit';
  const rests = !market && tif === 'GTC';
  const filled =
    side !== '' && quantity.trim() !== '' && (market || price.trim() !== '') && (!stop || stopPrice.trim() !== '');
  const buySide = side === 'buy';
  const preview =
    filled && !market
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
    const body = {
      pair: pair._id,
      buySide,
      initialAmount: quantity.trim(),
      ...(market ? {} : { price: price.trim() }),
      // The defaults (limit, GTC, not post-only) go unsaid, as before order types.
      ...(type === 'limit' ? {} : { type }),
      ...(stop ? { stopPrice: stopPrice.trim() } : {}),
      ...(tif === 'GTC' ? {} : { timeInForce: tif }),
      ...(postOnly && !market ? { postOnly: true } : {}),
      ...(rests && expiry !== '' ? { expiresAt: new Date(expiry).toISOString() } : {}),
    };
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
          <Select
            label="Order type"
            description={TYPE_HELP[type]}
            data={TYPE_OPTIONS}
            value={type}
            onChange={(v) => setType(ORDER_TYPES.find((t) => t === v) ?? 'limit')}
            allowDeselect={false}
          />
          <AmountInput
            label="Quantity"
            description={`${buyTicker} to ${buySide ? 'buy' : side === 'sell' ? 'sell' : 'trade'}`}
            unit={buyTicker}
            value={quantity}
            onChange={setQuantity}
          />
          {!market && (
            <AmountInput
              label="Price"
              description={`${sellTicker} per 1 ${buyTicker}`}
              unit={sellTicker}
              value={price}
              onChange={setPrice}
            />
          )}
          {stop && (
            <AmountInput
              label="Stop price"
              description={`${sellTicker} per 1 ${buyTicker}: ${buySide ? 'a trade at or above it' : side === 'sell' ? 'a trade at or below it' : 'a trade at or past it'} places the order`}
              unit={sellTicker}
              value={stopPrice}
              onChange={setStopPrice}
            />
          )}
          <Select
            label="Time in force"
            description={TIF_HELP[tif]}
            data={TIF_OPTIONS}
            value={tif}
            onChange={(v) => setTif(v === 'IOC' || v === 'FOK' ? v : 'GTC')}
            allowDeselect={false}
          />
          {!market && (
            <Checkbox
              label="Post-only"
              description="Refused if it would trade at once, so it only ever adds to the book."
              checked={postOnly}
              onChange={(e) => setPostOnly(e.currentTarget.checked)}
            />
          )}
          {rests && (
            <TextInput
              type="datetime-local"
              label="Expires (optional)"
              description="Cancelled at this time, its escrow returned."
              value={expiry}
              onChange={(e) => setExpiry(e.currentTarget.value)}
            />
          )}
          {market && side !== '' && (
            <Text size="xs" c="dimmed">
              {buySide
                ? `Escrows your available ${sellTicker} while it trades; what it does not spend comes back at once.`
                : `Escrows the ${buyTicker} to sell; what does not sell comes back at once.`}
            </Text>
          )}
          {market && side !== '' && <MarketEstimate view={view} buySide={buySide} quantity={quantity} />}
          {filled && !market && preview === null && (
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
                // `fee` is the larger of the maker and taker fees: the most this order can pay (DESIGN §11.4).
                label={
                  pair.makerFee === pair.takerFee
                    ? `Fee (${fractionToPercent(pair.fee)}%)`
                    : `Fee (at most ${fractionToPercent(pair.fee)}%)`
                }
                value={`${amountText(preview.fee, buySide ? buy : sell)} ${buySide ? buyTicker : sellTicker}`}
              />
              <PreviewRow
                label="You receive"
                value={`${amountText(preview.proceeds, buySide ? buy : sell)} ${buySide ? buyTicker : sellTicker}`}
              />
              <Text size="xs" c="dimmed">
                {stop
                  ? 'Escrowed now, while it waits for its stop; when filled at your price, a better resting price returns the difference.'
                  : 'When filled at your price; a better resting price returns the difference.'}
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
            // teal.9 and red (shade 8 in the dark scheme) keep white words at WCAG AA contrast; teal's 8 does not.
            color={side === 'sell' ? 'red' : side === 'buy' ? 'teal.9' : undefined}
            fullWidth
          >
            {!filled ? 'Please fill in all the fields' : buySide ? `Buy ${buyTicker}` : `Sell ${buyTicker}`}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
