/** POST /api/inventory/createCollection (creator or admin; DESIGN §7): `{collection, message}`. */
import type { CollectionResponse, CreateCollectionRequest } from '@starlight/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export function createCollection(body: CreateCollectionRequest): Promise<CollectionResponse> {
  return api<CollectionResponse>('POST', '/inventory/createCollection', body);
}

export function useCreateCollection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createCollection,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.items.collectionsAll }),
  });
}
