/** POST /api/cex/getDepth (ours, public): a pair's open quantity per price level on each side. */
import type { Depth, DepthResponse } from '@starlight/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Fetches up to `levels` price levels a side. */
export function getDepth(pair: string, levels = 50): Promise<DepthResponse> {
  return api<DepthResponse>('POST', '/cex/getDepth', { pair, levels });
}

/** The depth's query; the live feed pushes fresh depth into the same key. */
export const depthQuery = (pair: string) =>
  queryOptions({
    queryKey: queryKeys.exchange.depth(pair),
    queryFn: async (): Promise<Depth> => (await getDepth(pair)).depth,
  });

/** A pair's depth (null pair: idle). */
export function useDepth(pair: string | null) {
  return useQuery({ ...depthQuery(pair ?? ''), enabled: Boolean(pair) });
}
