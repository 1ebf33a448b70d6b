/**
 * /analytics, one trading pair: its closing price and traded volume over time (getCandles), with the
 * latest price, the change over the window and the total volume.
 */
import { CompositeChart } from '@mantine/charts';
import { Badge, Stack, Text } from '@mantine/core';
import { type Candle, fromNumeric, type Pair, sumAmounts, toDecimalString } from '@starlight/shared';
import { ChartCard } from '../../../components/ChartCard.tsx';
import {
  abbreviateNumber,
  bucketLabel,
  type ChartInterval,
  chartNumber,
  timeAxisProps,
} from '../../../components/chart-format.ts';
import { formatMoney } from '../../../components/Money.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { useCandles } from '../api/get-candles.ts';
import { usePairView } from '../hooks/use-pair-view.ts';

type Interval = ChartInterval;

/** Percent change from the first open to the last close, one decimal; display only. */
function changeOf(candles: Candle[]): number | null {
  const first = candles[0];
  const last = candles[candles.length - 1];
  if (!first || !last) return null;
  const open = fromNumeric(first.open);
  if (open === 0n) return null;
  const permille = ((fromNumeric(last.close) - open) * 1000n) / open;
  return Number(permille) / 10;
}

/** The pair's chart card; `limit` buckets of `interval`. */
export function PairAnalyticsCard({ pair, interval, limit }: { pair: Pair; interval: Interval; limit: number }) {
  const view = usePairView(pair);
  const candles = useCandles(pair._id, interval, limit);
  const data = candles.data ?? [];
  if (!view) return null;
  const last = data[data.length - 1];
  const change = changeOf(data);
  const volume = toDecimalString(sumAmounts(data.map((k) => fromNumeric(k.volume))));
  const points = data.map((k) => ({
    time: bucketLabel(k.time, interval),
    Price: chartNumber(k.close),
    Volume: chartNumber(k.volume),
  }));
  return (
    <ChartCard
      label={`${pair.name} analytics`}
      title={pair.name}
      subtitle={`${view.sellTicker} per ${view.buyTicker}`}
      figures={
        last && (
          <Stack gap={0} align="flex-end">
            <Text fw={700} size="lg" style={{ fontVariantNumeric: 'tabular-nums' }}>
              {formatMoney(last.close, view.sell)} {view.sellTicker}
            </Text>
            {change !== null && (
              <Badge color={change >= 0 ? 'teal' : 'red'} variant="light">
                {change >= 0 ? '+' : ''}
                {change.toFixed(1)}%
              </Badge>
            )}
          </Stack>
        )
      }
    >
      {candles.isError ? (
        <Text c="red.4">{errorMessage(candles.error)}</Text>
      ) : points.length === 0 ? (
        <Text c="dimmed">{candles.isLoading ? 'Loading…' : 'No trades in this period'}</Text>
      ) : (
        <>
          <CompositeChart
            h={240}
            data={points}
            dataKey="time"
            withRightYAxis
            withLegend
            curveType="monotone"
            withDots={points.length < 3}
            maxBarWidth={24}
            valueFormatter={abbreviateNumber}
            xAxisProps={timeAxisProps(interval)}
            series={[
              { name: 'Volume', type: 'bar', color: 'indigo.4', yAxisId: 'right', label: `Volume (${view.buyTicker})` },
              { name: 'Price', type: 'area', color: 'teal.4', label: `Close (${view.sellTicker})` },
            ]}
          />
          <Text size="sm" c="dimmed" mt="xs">
            Volume in this period: {formatMoney(volume, view.buy)} {view.buyTicker}
          </Text>
        </>
      )}
    </ChartCard>
  );
}
