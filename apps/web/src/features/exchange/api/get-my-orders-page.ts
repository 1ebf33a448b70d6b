/** POST /api/cex/getMyOrdersPage (member): a page of the signed-in member's orders of one state, newest first. */
import type { GetMyOrdersPageRequest, OrdersPageResponse } from '@starlight/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.ts';

/** Fetches one page (401 signed out). */
export function getMyOrdersPage(body: GetMyOrdersPageRequest): Promise<OrdersPageResponse> {
  return api<OrdersPageResponse>('POST', '/cex/getMyOrdersPage', body);
}

/**
 * The page `body` asks for, keyed by the session token (idle signed out); the page shown stays while the
 * next loads. The live feed's `orders` push refetches every such page.
 */
export function useMyOrdersPage(body: GetMyOrdersPageRequest) {
  const token = useSession((s) => s.token);
  return useQuery({
    queryKey: queryKeys.exchange.myOrdersPage(token, body),
    enabled: Boolean(token),
    queryFn: () => getMyOrdersPage(body),
    placeholderData: keepPreviousData,
  });
}
