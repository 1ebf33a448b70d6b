/**
 * Labels of the time charts (/analytics): bucket dates and axis numbers. Display only: the numbers come
 * from decimal strings converted for the chart and are never used for money.
 */

/** The bucket widths a member can pick: hourly or daily. */
export type ChartInterval = '1h' | '1d';

const SUFFIXES: ReadonlyArray<[number, string]> = [
  [1e15, 'Q'],
  [1e12, 'T'],
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'K'],
];
// Truncated like abbreviateAmount, so 999,999,999 reads "999.99M", never "1,000M".
const twoDecimals = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2, roundingMode: 'trunc' });

/**
 * An axis or tooltip number, abbreviated with the M, B, T, Q of the amounts (`abbreviateAmount`) and,
 * to keep axes narrow, K for thousands: 1_250_000 -> "1.25M", 350_000 -> "350K", 999 -> "999".
 */
export function abbreviateNumber(n: number): string {
  const abs = Math.abs(n);
  for (const [threshold, suffix] of SUFFIXES) {
    if (abs >= threshold) return `${twoDecimals.format(n / threshold)}${suffix}`;
  }
  return twoDecimals.format(n);
}

/** A bucket's start as the x-axis shows it: "03 Mar" daily, "03 Mar, 14:00" hourly (local time). */
export function bucketLabel(iso: string, interval: ChartInterval): string {
  const d = new Date(iso);
  return interval === '1d'
    ? d.toLocaleDateString('en-GB', { day: '2-digit', month: 'short' })
    : d.toLocaleString('en-GB', { day: '2-digit', month: 'short', hour: '2-digit', minute: '2-digit' });
}

/** Decimal string -> number for chart axes only (display; never used for money math). */
export function chartNumber(text: string): number {
  return Number(text);
}

/**
 * An x-axis tick of a time chart from its bucket label (`bucketLabel`): daily as it is; hourly the time
 * alone ("22:00"), or the day at midnight ("04 Mar"), so a tick stays narrow enough to sit whole at
 * the chart's edges (the full label is the tooltip's).
 */
export function axisTick(label: string, interval: ChartInterval): string {
  if (interval === '1d') return label;
  const [day, time] = label.split(', ');
  return time === undefined ? label : time === '00:00' ? (day ?? label) : time;
}

/**
 * The x-axis settings of every time chart: short ticks (`axisTick`) kept apart, and room on both sides
 * so the first and last ticks, centred on the first and last buckets, are not cut off by the frame.
 */
export function timeAxisProps(interval: ChartInterval) {
  return {
    minTickGap: 16,
    padding: { left: 24, right: 24 },
    tickFormatter: (v: string) => axisTick(String(v), interval),
  };
}
