/** Market data of a pair (ours, public): recent trades, OHLC candles and depth per price level. */
import type { CandleInterval, CandlesResponse, Depth, DepthResponse, Trade, TradesResponse } from '@starlight/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export function getTrades(pair: string, limit = 50): Promise<TradesResponse> {
  return api<TradesResponse>('POST', '/cex/getTrades', { pair, limit });
}

export function useTrades(pair: string | null) {
  return useQuery({
    queryKey: queryKeys.exchange.trades(pair ?? ''),
    enabled: Boolean(pair),
    queryFn: async (): Promise<Trade[]> => (await getTrades(pair ?? '')).trades,
  });
}

export function getCandles(pair: string, interval: CandleInterval, limit = 200): Promise<CandlesResponse> {
  return api<CandlesResponse>('POST', '/cex/getCandles', { pair, interval, limit });
}

export function useCandles(pair: string | null, interval: CandleInterval, limit = 200) {
  return useQuery({
    queryKey: [...queryKeys.exchange.candles(pair ?? '', interval), limit],
    enabled: Boolean(pair),
    queryFn: async () => (await getCandles(pair ?? '', interval, limit)).candles,
  });
}

export function getDepth(pair: string, levels = 50): Promise<DepthResponse> {
  return api<DepthResponse>('POST', '/cex/getDepth', { pair, levels });
}

export function useDepth(pair: string | null) {
  return useQuery({
    queryKey: queryKeys.exchange.depth(pair ?? ''),
    enabled: Boolean(pair),
    queryFn: async (): Promise<Depth> => (await getDepth(pair ?? '')).depth,
  });
}
