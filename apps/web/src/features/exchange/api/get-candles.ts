/** POST /api/cex/getCandles (ours, public): OHLC candles and volume of a pair, oldest first. */
import type { Candle, CandleInterval, CandlesResponse } from '@starlight/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Fetches the last `limit` buckets of `interval`. */
export function getCandles(pair: string, interval: CandleInterval, limit = 200): Promise<CandlesResponse> {
  return api<CandlesResponse>('POST', '/cex/getCandles', { pair, interval, limit });
}

/** The candles' query (refetched by the live feed when the pair trades). */
export const candlesQuery = (pair: string, interval: CandleInterval, limit = 200) =>
  queryOptions({
    queryKey: [...queryKeys.exchange.candles(pair, interval), limit],
    queryFn: async (): Promise<Candle[]> => (await getCandles(pair, interval, limit)).candles,
  });

/** A pair's candles (null pair: idle). */
export function useCandles(pair: string | null, interval: CandleInterval, limit = 200) {
  return useQuery({ ...candlesQuery(pair ?? '', interval, limit), enabled: Boolean(pair) });
}
