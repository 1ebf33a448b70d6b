/** POST /api/inventory/getUserItemsGrouped (member): the caller's items of a collection grouped by name, and `total`. */
import type { GetUserItemsGroupedRequest, GroupedItemsResponse } from '@starlight/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export function getUserItemsGrouped(
  body: GetUserItemsGroupedRequest,
  signal?: AbortSignal,
): Promise<GroupedItemsResponse> {
  return api<GroupedItemsResponse>('POST', '/inventory/getUserItemsGrouped', body, signal ? { signal } : {});
}

export const groupedItemsQuery = (body: GetUserItemsGroupedRequest) =>
  queryOptions({
    queryKey: queryKeys.items.grouped(body),
    queryFn: ({ signal }) => getUserItemsGrouped(body, signal),
    placeholderData: keepPreviousData,
  });

/** The grouped items of `body`'s collection; idle without a collection chosen. */
export function useGroupedItems(body: GetUserItemsGroupedRequest | null) {
  return useQuery({
    ...groupedItemsQuery(body ?? { filters: { itemCollection: '' }, paging: { limit: 10, page: 1 } }),
    enabled: body !== null,
  });
}
