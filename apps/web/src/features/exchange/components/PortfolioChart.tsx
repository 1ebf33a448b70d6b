/**
 * The portfolio's value over the last 30 days as an area chart (DESIGN §11.4 `portfolio.history`): its own
 * module, so the charting library loads only when the chart is drawn.
 */
import { AreaChart } from '@mantine/charts';
import type { PortfolioResponse } from '@starlight/shared';
import { abbreviateNumber, bucketLabel, chartNumber, timeAxisProps } from '../../../components/chart-format.ts';

export function PortfolioChart({
  history,
  ticker,
  height,
}: {
  history: PortfolioResponse['history'];
  ticker: string;
  height: number;
}) {
  const data = history.map((p) => ({ day: bucketLabel(`${p.date}T00:00:00Z`, '1d'), Value: chartNumber(p.value) }));
  return (
    <AreaChart
      h={height}
      data={data}
      dataKey="day"
      curveType="linear"
      fillOpacity={0.25}
      withDots={false}
      valueFormatter={abbreviateNumber}
      xAxisProps={timeAxisProps('1d')}
      series={[{ name: 'Value', color: 'indigo.4', label: `Value (${ticker})` }]}
    />
  );
}
