/** POST /api/bank/currencyStats (admin): per currency, its category totals, totals and circulating. */
import type { CurrencyStatsEntry, CurrencyStatsRequest } from '@starlight/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export interface CurrencyStatsResult {
  currencyStats: CurrencyStatsEntry[];
  message: string;
}

/** Fetches the stats for an optional date range ('YYYY-MM-DD') and currency. */
export function getCurrencyStats(body: CurrencyStatsRequest, signal?: AbortSignal): Promise<CurrencyStatsResult> {
  return api<CurrencyStatsResult>('POST', '/bank/currencyStats', body, signal ? { signal } : {});
}

export const currencyStatsQuery = (body: CurrencyStatsRequest) =>
  queryOptions({
    queryKey: [...queryKeys.currencyStats, body],
    queryFn: ({ signal }) => getCurrencyStats(body, signal),
    placeholderData: keepPreviousData,
  });

export function useCurrencyStats(body: CurrencyStatsRequest) {
  return useQuery(currencyStatsQuery(body));
}
