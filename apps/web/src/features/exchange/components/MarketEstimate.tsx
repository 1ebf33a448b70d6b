/**
 * The create-order form's estimate of a market order (DESIGN §11.4): the expected average price and its
 * slippage against the best price, from the depth the page already holds (`estimateMarket`).
 */
import { Stack, Text } from '@mantine/core';
import { formatAmount } from '@starlight/shared';
import { formatMoney } from '../../../components/Money.tsx';
import { useDepth } from '../api/get-depth.ts';
import type { PairView } from '../hooks/use-pair-view.ts';
import { bpsToPercent, estimateMarket } from '../utils/market-estimate.ts';
import { parsePositive } from '../utils/order-preview.ts';
import { PreviewRow } from './PreviewRow.tsx';

export function MarketEstimate({ view, buySide, quantity }: { view: PairView; buySide: boolean; quantity: string }) {
  const depth = useDepth(view.pair._id);
  const { buy, sell, buyTicker, sellTicker } = view;
  const amount = parsePositive(quantity);
  if (amount === null) return null;
  if (!depth.data) {
    return (
      <Text size="xs" c="dimmed">
        Reading the book…
      </Text>
    );
  }
  const estimate = estimateMarket(buySide ? depth.data.sells : depth.data.buys, amount);
  if (!estimate) {
    return (
      <Text size="sm" c="red.4">
        No {buySide ? 'sell' : 'buy'} orders on the book to match.
      </Text>
    );
  }
  const price = (a: bigint) => `${formatMoney(formatAmount(a), sell)} ${sellTicker}`;
  return (
    <Stack gap={2} p="xs" bg="var(--mantine-color-dark-6)" style={{ borderRadius: 8 }} aria-live="polite">
      <PreviewRow label="Expected average price" value={price(estimate.average)} />
      <PreviewRow label="Slippage" value={`${bpsToPercent(estimate.slippageBps)}% from ${price(estimate.best)}`} />
      {!estimate.complete && (
        <Text size="xs" c="yellow.4">
          The book shown holds only {formatMoney(formatAmount(estimate.filled), buy)} {buyTicker}; the rest would be
          cancelled.
        </Text>
      )}
      <Text size="xs" c="dimmed">
        An estimate from the book now; it may move before your order arrives.
      </Text>
    </Stack>
  );
}
