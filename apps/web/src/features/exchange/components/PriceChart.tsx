/**
 * Candlestick price chart of a pair (lightweight-charts v5) from getCandles, with the volume as a
 * histogram beneath. Refetched when the live feed reports new trades (use-exchange-socket).
 */
import { Card, Group, Loader, SegmentedControl, Text, Title } from '@mantine/core';
import { CANDLE_INTERVALS, type Candle, type CandleInterval } from '@starlight/shared';
import {
  CandlestickSeries,
  ColorType,
  createChart,
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import { chartNumber } from '../../../components/chart-format.ts';
import { useCandles } from '../api/get-candles.ts';
import type { PairView } from '../hooks/use-pair-view.ts';

const UP = '#12b886';
const DOWN = '#fa5252';

function toSeconds(iso: string): UTCTimestamp {
  return Math.floor(new Date(iso).getTime() / 1000) as UTCTimestamp;
}

function CandleCanvas({ candles, precision }: { candles: Candle[]; precision: number }) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | null>(null);
  const series = useRef<{ candles: ISeriesApi<'Candlestick'>; volume: ISeriesApi<'Histogram'> } | null>(null);

  useEffect(() => {
    if (!el.current) return;
    const c = createChart(el.current, {
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: 'transparent' },
        textColor: '#c9c9c9',
        attributionLogo: false,
      },
      grid: { vertLines: { color: 'rgba(255,255,255,0.06)' }, horzLines: { color: 'rgba(255,255,255,0.06)' } },
      rightPriceScale: { borderColor: 'rgba(255,255,255,0.15)' },
      timeScale: { borderColor: 'rgba(255,255,255,0.15)', timeVisible: true },
    });
    const candleSeries = c.addSeries(CandlestickSeries, {
      upColor: UP,
      downColor: DOWN,
      borderVisible: false,
      wickUpColor: UP,
      wickDownColor: DOWN,
    });
    const volume = c.addSeries(HistogramSeries, { priceScaleId: 'volume', priceFormat: { type: 'volume' } });
    c.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
    candleSeries.priceScale().applyOptions({ scaleMargins: { top: 0.1, bottom: 0.25 } });
    chart.current = c;
    series.current = { candles: candleSeries, volume };
    return () => {
      c.remove();
      chart.current = null;
      series.current = null;
    };
  }, []);

  useEffect(() => {
    const s = series.current;
    if (!s) return;
    const p = Math.min(Math.max(precision, 0), 9);
    s.candles.applyOptions({ priceFormat: { type: 'price', precision: p, minMove: 10 ** -p } });
    s.candles.setData(
      candles.map((k) => ({
        time: toSeconds(k.time),
        open: chartNumber(k.open),
        high: chartNumber(k.high),
        low: chartNumber(k.low),
        close: chartNumber(k.close),
      })),
    );
    s.volume.setData(
      candles.map((k) => ({
        time: toSeconds(k.time),
        value: chartNumber(k.volume),
        color: chartNumber(k.close) >= chartNumber(k.open) ? 'rgba(18,184,134,0.45)' : 'rgba(250,82,82,0.45)',
      })),
    );
    chart.current?.timeScale().fitContent();
  }, [candles, precision]);

  return <div ref={el} style={{ width: '100%', height: '100%' }} />;
}

export function PriceChart({ view }: { view: PairView }) {
  const [interval, setInterval] = useState<CandleInterval>('1h');
  const candles = useCandles(view.pair._id, interval);
  const data = candles.data ?? [];
  return (
    <Card withBorder radius="md" component="section" aria-labelledby="price-chart-title">
      <Group justify="space-between" mb="xs" gap="xs">
        <Title order={2} size="h4" id="price-chart-title">
          Price ({view.sellTicker} per {view.buyTicker})
        </Title>
        <SegmentedControl
          size="xs"
          aria-label="Candle interval"
          value={interval}
          onChange={(v) =>
            setInterval((CANDLE_INTERVALS as readonly string[]).includes(v) ? (v as CandleInterval) : '1h')
          }
          data={[...CANDLE_INTERVALS]}
        />
      </Group>
      <div
        style={{ position: 'relative', height: 300 }}
        role="img"
        aria-label={`Candlestick chart of ${view.pair.name}`}
      >
        <CandleCanvas candles={data} precision={view.sell?.precision ?? 2} />
        {(candles.isLoading || data.length === 0) && (
          <Group justify="center" style={{ position: 'absolute', inset: 0, pointerEvents: 'none' }}>
            {candles.isLoading ? <Loader size="sm" /> : <Text c="dimmed">No trades yet</Text>}
          </Group>
        )}
      </div>
    </Card>
  );
}
