/** POST /api/inventory/getUserCollections (member): the collections the caller holds items of, with counts. */
import type { UserCollectionsResponse } from '@starlight/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.ts';

export function getUserCollections(signal?: AbortSignal): Promise<UserCollectionsResponse> {
  return api<UserCollectionsResponse>('POST', '/inventory/getUserCollections', {}, signal ? { signal } : {});
}

/** The session member's collections (by name, with counts); idle when signed out. */
export function useHeldCollections() {
  const token = useSession((s) => s.token);
  return useQuery({
    queryKey: queryKeys.items.held(token),
    queryFn: ({ signal }) => getUserCollections(signal),
    enabled: token !== null,
  });
}
