/** POST /api/inventory/modifyCollection (the collection's creator; DESIGN §7): `{collection, message}`. */
import type { CollectionResponse, ModifyCollectionRequest } from '@starlight/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export function modifyCollection(body: ModifyCollectionRequest): Promise<CollectionResponse> {
  return api<CollectionResponse>('POST', '/inventory/modifyCollection', body);
}

export function useModifyCollection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: modifyCollection,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.items.collectionsAll }),
  });
}
