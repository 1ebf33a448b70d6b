/**
 * /analytics, one currency: its supply (issued - removed, DESIGN §4) and circulating amount (SPEC §3)
 * over time from the ledger (the page's one supplyHistories call, hourly or daily buckets), with the latest
 * of each; the chart is drawn once the card is scrolled to.
 */
import { AreaChart } from '@mantine/charts';
import { Group, Stack, Text } from '@mantine/core';
import { abbreviateAmount, type Currency, fromNumeric, type SupplyPoint, UNIT } from '@starlight/shared';
import { ChartCard } from '../../../components/ChartCard.tsx';
import {
  abbreviateNumber,
  bucketLabel,
  type ChartInterval,
  chartNumber,
  timeAxisProps,
} from '../../../components/chart-format.ts';
import { formatMoney } from '../../../components/Money.tsx';
import { WhenVisible } from '../../../components/WhenVisible.tsx';

const ABBREVIATE_FROM = 1_000_000n * UNIT;

/** The latest figure at the currency's precision, abbreviated (M, B, T, Q) from a million; full on hover. */
function Figure({ label, amount, currency }: { label: string; amount: string; currency: Currency }) {
  const a = fromNumeric(amount);
  const full = formatMoney(amount, currency);
  const big = (a < 0n ? -a : a) >= ABBREVIATE_FROM;
  return (
    <Stack gap={0} align="flex-end">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text
        fw={700}
        size="lg"
        title={big ? `${full} ${currency.ticker}` : undefined}
        style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
      >
        {big ? abbreviateAmount(a, currency.precision) : full} {currency.ticker}
      </Text>
    </Stack>
  );
}

/**
 * The buckets worth drawing: from the last empty one before the first movement on. A young currency
 * then fills the chart instead of sitting at the right edge of weeks of zeros.
 */
function fromFirstActivity(points: SupplyPoint[]): SupplyPoint[] {
  // Amounts come at the currency's precision ("0.00"): compared as amounts, not as text.
  const first = points.findIndex((p) => fromNumeric(p.supply) !== 0n || fromNumeric(p.circulating) !== 0n);
  return first === -1 ? [] : points.slice(Math.max(first - 1, 0));
}

/** The state of the page's supply histories call, for one currency. */
export interface SupplyHistoryState {
  points: SupplyPoint[] | undefined;
  isLoading: boolean;
  error: Error | null;
}

export function CurrencySupplyCard({
  currency,
  interval,
  history,
}: {
  currency: Currency;
  interval: ChartInterval;
  history: SupplyHistoryState;
}) {
  const data = fromFirstActivity(history.points ?? []);
  const last = data[data.length - 1];
  const hasSupply = data.length > 0;
  const points = data.map((p) => ({
    time: bucketLabel(p.time, interval),
    Supply: chartNumber(p.supply),
    Circulating: chartNumber(p.circulating),
  }));
  return (
    <ChartCard
      label={`${currency.name} supply`}
      title={currency.name}
      subtitle={currency.ticker}
      figures={
        last &&
        hasSupply && (
          <Group gap="lg" align="flex-start">
            <Figure label="Supply" amount={last.supply} currency={currency} />
            <Figure label="Circulating" amount={last.circulating} currency={currency} />
          </Group>
        )
      }
    >
      {history.error ? (
        <Text c="red.4">{history.error.message}</Text>
      ) : history.isLoading ? (
        <Text c="dimmed">Loading…</Text>
      ) : !hasSupply ? (
        <Text c="dimmed">No supply yet</Text>
      ) : (
        <WhenVisible minHeight={240}>
          <AreaChart
            h={240}
            data={points}
            dataKey="time"
            withLegend
            curveType="linear"
            withDots={points.length < 3}
            fillOpacity={0.25}
            valueFormatter={abbreviateNumber}
            xAxisProps={timeAxisProps(interval)}
            series={[
              { name: 'Supply', color: 'indigo.4', label: `Supply (${currency.ticker})` },
              {
                name: 'Circulating',
                color: 'teal.4',
                label: `Circulating (${currency.ticker})`,
                strokeDasharray: '6 4',
              },
            ]}
          />
        </WhenVisible>
      )}
    </ChartCard>
  );
}
