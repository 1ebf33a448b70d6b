/** POST /api/market/createListing (member, DESIGN §11.5): one of the caller's items for sale at a price. */
import type { CreateListingRequest, ListingResponse } from '@starlight/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export function createListing(body: CreateListingRequest): Promise<ListingResponse> {
  return api<ListingResponse>('POST', '/market/createListing', body);
}

/** The mutation; on success the marketplace's lists refetch. Errors: the server's message. */
export function useCreateListing() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createListing,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.market.all }),
  });
}
