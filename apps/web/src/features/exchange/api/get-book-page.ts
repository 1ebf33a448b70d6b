/** POST /api/cex/getBookPage (public): a page of one side of a pair's open orders, best price first. */
import type { GetBookPageRequest, OrdersPageResponse } from '@starlight/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Fetches one page of one side. */
export function getBookPage(body: GetBookPageRequest): Promise<OrdersPageResponse> {
  return api<OrdersPageResponse>('POST', '/cex/getBookPage', body);
}

/** The page `body` asks for; the page shown stays while the next loads. */
export function useBookPage(body: GetBookPageRequest) {
  return useQuery({
    queryKey: queryKeys.exchange.bookPage(body.pair, body),
    queryFn: () => getBookPage(body),
    placeholderData: keepPreviousData,
  });
}
