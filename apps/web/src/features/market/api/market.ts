/**
 * The marketplace (DESIGN §11.5): POST /api/market/listings and listingsByItem (public), myListings (member), cancelListing
 * (member) and buy (member, with an Idempotency-Key kept across retries of one submission).
 */
import type {
  ListingResponse,
  ListingsByItemRequest,
  ListingsByItemResponse,
  ListingsRequest,
  ListingsResponse,
  MyListingsRequest,
} from '@starlight/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.ts';
import { useIdempotentMutation } from '../../../lib/use-idempotency-key.ts';

/** Open listings matching `body` (filters, sort, paging); the page shown stays while the next loads. */
export function useListings(body: ListingsRequest | null) {
  return useQuery({
    queryKey: queryKeys.market.listings(body),
    queryFn: ({ signal }) => api<ListingsResponse>('POST', '/market/listings', body, { signal }),
    enabled: body !== null,
    placeholderData: keepPreviousData,
  });
}

/** Every open listing grouped by item name and currency (`body`: filters, a page's size and its cursor). */
export function useListingsByItem(body: ListingsByItemRequest | null) {
  return useQuery({
    queryKey: queryKeys.market.byItem(body),
    queryFn: ({ signal }) => api<ListingsByItemResponse>('POST', '/market/listingsByItem', body, { signal }),
    enabled: body !== null,
    placeholderData: keepPreviousData,
  });
}

/** The session member's listings, every state, newest first; idle when signed out. */
export function useMyListings(body: MyListingsRequest) {
  const token = useSession((s) => s.token);
  return useQuery({
    queryKey: queryKeys.market.mine(token, body),
    queryFn: ({ signal }) => api<ListingsResponse>('POST', '/market/myListings', body, { signal }),
    enabled: token !== null,
    placeholderData: keepPreviousData,
  });
}

/** Refetches what a sale or a cancel changes: listings, balances, history, items. */
function useRefreshAfterTrade() {
  const client = useQueryClient();
  return () =>
    Promise.all(
      [queryKeys.market.all, queryKeys.meAll, queryKeys.transactionsAll, ['items']].map((queryKey) =>
        client.invalidateQueries({ queryKey }),
      ),
    );
}

/** Cancels one of the member's open listings (`listingId`); the item is free again. Errors: the server's message. */
export function useCancelListing() {
  const refresh = useRefreshAfterTrade();
  return useMutation({
    mutationFn: (listingId: string) => api<ListingResponse>('POST', '/market/cancelListing', { listingId }),
    onSuccess: refresh,
  });
}

/**
 * Buys an open listing (`listingId`): the price leaves the buyer's balance and the item becomes theirs.
 * The key of a listing is kept until it succeeds, so a retry after a lost answer cannot buy twice. Failures
 * are left to the dialog, which shows them ('This listing has been sold', 'Insufficient funds').
 */
export function useBuyListing() {
  const refresh = useRefreshAfterTrade();
  return useIdempotentMutation({
    send: (listingId: string, idempotencyKey: string) =>
      api<ListingResponse>('POST', '/market/buy', { listingId }, { idempotencyKey }),
    target: (listingId) => listingId,
    onSuccess: refresh,
    toastErrors: false,
  });
}
