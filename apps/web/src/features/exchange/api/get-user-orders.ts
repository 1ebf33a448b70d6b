/** GET /api/cex/getUserOrders (member): the signed-in member's orders on every pair. */
import type { Order, UserOrdersResponse } from '@starlight/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.ts';

/** Fetches the member's orders (401 signed out). */
export function getUserOrders(): Promise<UserOrdersResponse> {
  return api<UserOrdersResponse>('GET', '/cex/getUserOrders');
}

/** Keyed by the session token: the live feed pushes the same whole list into this key. */
export const myOrdersQuery = (token: string | null) =>
  queryOptions({
    queryKey: queryKeys.exchange.myOrders(token),
    enabled: Boolean(token),
    queryFn: async (): Promise<Order[]> => (await getUserOrders()).orders,
  });

/** The signed-in member's orders (idle signed out). */
export function useMyOrders() {
  const token = useSession((s) => s.token);
  return useQuery(myOrdersQuery(token));
}
