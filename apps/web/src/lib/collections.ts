/**
 * POST /api/inventory/getCollections (public; DESIGN §7): every item collection, and the caller's own
 * with their app URLs (`mine`). Shared by the Game Items tab and the creator console.
 */
import type { CollectionsResponse } from '@starlight/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api.ts';
import { queryKeys } from './query-keys.ts';
import { useSession } from './session.ts';

export function fetchCollections(signal?: AbortSignal): Promise<CollectionsResponse> {
  return api<CollectionsResponse>('POST', '/inventory/getCollections', {}, signal ? { signal } : {});
}

/** The collections as `token`'s session sees them (its own with their URLs). */
export const collectionsQuery = (token: string | null) =>
  queryOptions({ queryKey: queryKeys.items.collections(token), queryFn: ({ signal }) => fetchCollections(signal) });

export function useCollections() {
  return useQuery(collectionsQuery(useSession((s) => s.token)));
}
