/**
 * /analytics (SPEC §2), public: per currency, the supply and circulating amount over time from the ledger
 * (CurrencySupplyCard, supplyHistory); per trading pair, the closing price and the traded volume over time
 * (getCandles), with the latest price, the change over the window and the total volume. One Hourly /
 * Daily switch drives every chart.
 */
import { CompositeChart } from '@mantine/charts';
import { Badge, Card, Group, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { type Candle, fromNumeric, type Pair, sumAmounts, toDecimalString } from '@starlight/shared';
import { useEffect, useState } from 'react';
import { ChartCard } from '../../../components/ChartCard.tsx';
import { abbreviateNumber, bucketLabel, type ChartInterval, chartNumber } from '../../../components/chart-format.ts';
import { formatMoney } from '../../../components/Money.tsx';
import { useCurrencies } from '../../bank/api/currencies.ts';
import { CurrencySupplyCard } from '../../bank/components/CurrencySupplyCard.tsx';
import { useCandles } from '../api/market.ts';
import { usePairs } from '../api/pairs.ts';
import { usePairView } from '../hooks/use-pair-view.ts';
import { errorText } from '../utils/messages.ts';

type Interval = ChartInterval;

/** Buckets per chart: a week of hours or three months of days. */
const LIMITS: Record<Interval, number> = { '1h': 168, '1d': 90 };

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

function PairAnalytics({ pair, interval }: { pair: Pair; interval: Interval }) {
  const view = usePairView(pair);
  const candles = useCandles(pair._id, interval, LIMITS[interval]);
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
        <Text c="red.4">{errorText(candles.error)}</Text>
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
            xAxisProps={{ minTickGap: 24 }}
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

function CurrenciesSection({ interval }: { interval: Interval }) {
  const currencies = useCurrencies();
  const list = currencies.data ?? [];
  return (
    <Stack gap="sm" component="section" aria-labelledby="analytics-currencies">
      <Title order={2} size="h3" id="analytics-currencies">
        Currencies
      </Title>
      {currencies.isError && <Text c="red.4">{errorText(currencies.error)}</Text>}
      {currencies.isLoading ? (
        <Text c="dimmed">Loading…</Text>
      ) : list.length === 0 ? (
        <Card withBorder radius="md">
          <Text c="dimmed">No currencies yet</Text>
        </Card>
      ) : (
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          {list.map((c) => (
            <CurrencySupplyCard key={c.currencyId} currency={c} interval={interval} limit={LIMITS[interval]} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

function PairsSection({ interval }: { interval: Interval }) {
  const pairs = usePairs();
  const list = pairs.data ?? [];
  return (
    <Stack gap="sm" component="section" aria-labelledby="analytics-pairs">
      <Title order={2} size="h3" id="analytics-pairs">
        Trading pairs
      </Title>
      {pairs.isError && <Text c="red.4">{errorText(pairs.error)}</Text>}
      {pairs.isLoading ? (
        <Text c="dimmed">Loading…</Text>
      ) : list.length === 0 ? (
        <Card withBorder radius="md">
          <Text c="dimmed">No trading pairs yet</Text>
        </Card>
      ) : (
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          {list.map((p) => (
            <PairAnalytics key={p._id} pair={p} interval={interval} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

export function AnalyticsPage() {
  const [interval, setInterval] = useState<Interval>('1h');
  useEffect(() => {
    document.title = 'Analytics · Starlight';
  }, []);
  return (
    <Stack gap="lg" p={{ base: 0, sm: 'xs' }}>
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Title order={1} size="h2">
            Analytics
          </Title>
          <Text c="dimmed" size="sm">
            Supply and circulating amount of every currency, from the ledger; price and volume of every trading pair on
            the Quantum Hub.
          </Text>
        </div>
        <SegmentedControl
          aria-label="Bucket size"
          value={interval}
          onChange={(v) => setInterval(v === '1d' ? '1d' : '1h')}
          data={[
            { value: '1h', label: 'Hourly' },
            { value: '1d', label: 'Daily' },
          ]}
        />
      </Group>
      <CurrenciesSection interval={interval} />
      <PairsSection interval={interval} />
    </Stack>
  );
}
