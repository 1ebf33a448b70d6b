/**
 * Depth chart of a pair: cumulative open quantity on each side by price (bids left, asks right), from
 * the live `depth` of the book.
 */
import { AreaChart } from '@mantine/charts';
import { Card, Text, Title } from '@mantine/core';
import type { Depth } from '@starlight/shared';
import { chartNumber } from '../../../components/chart-format.ts';
import { useDepth } from '../api/get-depth.ts';
import type { PairView } from '../hooks/use-pair-view.ts';

const compactFormat = new Intl.NumberFormat('en-GB', { notation: 'compact', maximumFractionDigits: 2 });
const compact = (n: number) => compactFormat.format(n);

interface Point {
  price: number;
  Bids?: number;
  Asks?: number;
}

/** Cumulative quantities for display; bids best (highest) first accumulate toward lower prices. */
export function depthPoints(depth: Depth): Point[] {
  const points: Point[] = [];
  let cum = 0;
  for (const l of depth.buys) {
    cum += chartNumber(l.amount);
    points.push({ price: chartNumber(l.price), Bids: cum });
  }
  cum = 0;
  for (const l of depth.sells) {
    cum += chartNumber(l.amount);
    points.push({ price: chartNumber(l.price), Asks: cum });
  }
  return points.sort((a, b) => a.price - b.price);
}

export function DepthChart({ view }: { view: PairView }) {
  const depth = useDepth(view.pair._id);
  const points = depth.data ? depthPoints(depth.data) : [];
  return (
    <Card withBorder radius="md" component="section" aria-labelledby="depth-chart-title">
      <Title order={2} size="h4" id="depth-chart-title">
        Market depth
      </Title>
      <Text size="xs" c="dimmed" mb="xs">
        Cumulative open quantity ({view.buyTicker}) by price
      </Text>
      {points.length === 0 ? (
        <Text c="dimmed">No open orders</Text>
      ) : (
        <AreaChart
          h={220}
          data={points}
          dataKey="price"
          curveType="stepAfter"
          withDots={false}
          connectNulls={false}
          fillOpacity={0.35}
          xAxisProps={{ type: 'number', domain: ['dataMin', 'dataMax'] }}
          xAxisLabel={`Price (${view.sellTicker})`}
          valueFormatter={compact}
          yAxisProps={{ width: 48 }}
          series={[
            { name: 'Bids', color: 'teal.5' },
            { name: 'Asks', color: 'red.5' },
          ]}
          withLegend
        />
      )}
    </Card>
  );
}
