/** POST /api/inventory/giftItem (member, DESIGN §11.5): one of the caller's items to another member. */
import type { GiftItemRequest } from '@starlight/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export function giftItem(body: GiftItemRequest): Promise<{ message: string }> {
  return api<{ message: string }>('POST', '/inventory/giftItem', body);
}

/** The mutation; on success the member's grouped items and held collections refetch (the item left them). */
export function useGiftItem() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: giftItem,
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.items.groupedAll }),
        client.invalidateQueries({ queryKey: queryKeys.items.heldAll }),
      ]);
    },
  });
}
