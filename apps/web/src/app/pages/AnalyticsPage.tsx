/**
 * /analytics (SPEC §2), public: per currency, the supply and circulating amount over time from the ledger
 * (CurrencySupplyCard, every currency from one supplyHistories call); per trading pair, the closing price
 * and the traded volume over time (getCandles), with the latest price, the change over the window and the
 * total volume. One Hourly / Daily switch drives every chart. Charts are drawn, and a pair's candles
 * fetched, once they are scrolled to.
 */
import { Card, Group, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { ChartInterval } from '../../components/chart-format.ts';
import { WhenVisible } from '../../components/WhenVisible.tsx';
import { useSupplyHistories } from '../../features/bank/api/get-supply-history.ts';
import { CurrencySupplyCard } from '../../features/bank/components/CurrencySupplyCard.tsx';
import { usePairs } from '../../features/exchange/api/get-pairs.ts';
import { PairAnalyticsCard } from '../../features/exchange/components/PairAnalyticsCard.tsx';
import { useCurrencies } from '../../lib/currencies.ts';
import { errorMessage } from '../../lib/errors.ts';

type Interval = ChartInterval;

/** Buckets per chart: a week of hours or three months of days. */
const LIMITS: Record<Interval, number> = { '1h': 168, '1d': 90 };

/** The height a pair's card takes, held until it is drawn. */
const PAIR_CARD_HEIGHT = 360;

function CurrenciesSection({ interval }: { interval: Interval }) {
  const currencies = useCurrencies();
  const histories = useSupplyHistories(interval, LIMITS[interval]);
  const list = currencies.data ?? [];
  return (
    <Stack gap="sm" component="section" aria-labelledby="analytics-currencies">
      <Title order={2} size="h3" id="analytics-currencies">
        Currencies
      </Title>
      {currencies.isError && <Text c="red.4">{errorMessage(currencies.error)}</Text>}
      {currencies.isLoading ? (
        <Text c="dimmed">Loading…</Text>
      ) : list.length === 0 ? (
        <Card withBorder radius="md">
          <Text c="dimmed">No currencies yet</Text>
        </Card>
      ) : (
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          {list.map((c) => (
            <CurrencySupplyCard
              key={c.currencyId}
              currency={c}
              interval={interval}
              history={{
                points: histories.data?.get(c.currencyId),
                isLoading: histories.isLoading,
                error: histories.error,
              }}
            />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

/**
 * The pairs' cards wait for the currencies above them: drawn while the currencies still load, they would
 * sit in view and fetch every pair's candles before the member scrolled to them.
 */
function PairsSection({ interval, below }: { interval: Interval; below: boolean }) {
  const pairs = usePairs();
  const list = pairs.data ?? [];
  return (
    <Stack gap="sm" component="section" aria-labelledby="analytics-pairs">
      <Title order={2} size="h3" id="analytics-pairs">
        Trading pairs
      </Title>
      {pairs.isError && <Text c="red.4">{errorMessage(pairs.error)}</Text>}
      {pairs.isLoading || !below ? (
        <Text c="dimmed">Loading…</Text>
      ) : list.length === 0 ? (
        <Card withBorder radius="md">
          <Text c="dimmed">No trading pairs yet</Text>
        </Card>
      ) : (
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          {list.map((p) => (
            // A pair's card (and its candles) waits until it is scrolled to: the pairs sit below the currencies.
            <WhenVisible key={p._id} minHeight={PAIR_CARD_HEIGHT}>
              <PairAnalyticsCard pair={p} interval={interval} limit={LIMITS[interval]} />
            </WhenVisible>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

export function AnalyticsPage() {
  const [interval, setInterval] = useState<Interval>('1h');
  const currencies = useCurrencies();
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
      <PairsSection interval={interval} below={!currencies.isLoading} />
    </Stack>
  );
}
