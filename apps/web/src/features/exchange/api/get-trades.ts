/** POST /api/cex/getTrades (ours, public): a pair's latest trades, newest first. */
import type { Trade, TradesResponse } from '@starlight/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Fetches up to `limit` trades of `pair`. */
export function getTrades(pair: string, limit = 50): Promise<TradesResponse> {
  return api<TradesResponse>('POST', '/cex/getTrades', { pair, limit });
}

/** The trades' query; the live feed merges pushed trades into the same key. */
export const tradesQuery = (pair: string) =>
  queryOptions({
    queryKey: queryKeys.exchange.trades(pair),
    queryFn: async (): Promise<Trade[]> => (await getTrades(pair)).trades,
  });

/** A pair's trades (null pair: idle). */
export function useTrades(pair: string | null) {
  return useQuery({ ...tradesQuery(pair ?? ''), enabled: Boolean(pair) });
}
