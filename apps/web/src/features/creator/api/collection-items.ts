/**
 * A collection's items as its creator manages them (DESIGN §7): the paged list (`getItems`, newest first,
 * hidden data included for the creator), `createItem` and `modifyItem` (`{item, message}`), which refresh
 * the list and the members' grouped items.
 */
import type {
  CreateItemRequest,
  GetItemsRequest,
  ItemResponse,
  ItemsResponse,
  ModifyItemRequest,
} from '@starlight/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** One page of `body.itemCollection`'s items. */
export function useCollectionItems(body: GetItemsRequest) {
  return useQuery({
    queryKey: queryKeys.items.ofCollection(body),
    queryFn: ({ signal }) => api<ItemsResponse>('POST', '/inventory/getItems', body, { signal }),
    placeholderData: keepPreviousData,
  });
}

function useItemMutation<B>(path: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: B) => api<ItemResponse>('POST', path, body),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.items.ofCollectionAll }),
        client.invalidateQueries({ queryKey: queryKeys.items.groupedAll }),
      ]),
  });
}

/** POST /api/inventory/createItem (the collection's creator). */
export const useCreateItem = () => useItemMutation<CreateItemRequest>('/inventory/createItem');

/** POST /api/inventory/modifyItem (the collection's creator). */
export const useModifyItem = () => useItemMutation<ModifyItemRequest>('/inventory/modifyItem');
