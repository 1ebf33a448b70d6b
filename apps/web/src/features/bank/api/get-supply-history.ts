/**
 * POST /api/bank/supplyHistories (public, ours): every currency's supply and circulating per bucket,
 * oldest first, in one answer (the /analytics page draws them all from it).
 */
import type { SupplyHistoriesResponse, SupplyInterval, SupplyPoint } from '@starlight/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Every currency's points for the last `limit` buckets of `interval`, by currency id. */
export function useSupplyHistories(interval: SupplyInterval, limit: number) {
  return useQuery({
    queryKey: queryKeys.supplyHistories(interval, limit),
    queryFn: async (): Promise<Map<number, SupplyPoint[]>> => {
      const res = await api<SupplyHistoriesResponse>('POST', '/bank/supplyHistories', { interval, limit });
      return new Map(res.histories.map((h) => [h.currencyId, h.points]));
    },
  });
}
