/**
 * POST /api/capp/getAuthRequest (public): what a creator app's consent request asks, for the page the
 * member signs in on (DESIGN §7). Refused with the server's message: 404 `Authorization request not
 * found`, 409 `Authorization request expired` or `Authorization request already used`.
 */
import type { GetAuthRequestResponse } from '@starlight/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Fetches the consent request `requestId`. */
export function getAuthRequest(requestId: string, signal?: AbortSignal): Promise<GetAuthRequestResponse> {
  return api<GetAuthRequestResponse>('POST', '/capp/getAuthRequest', { requestId }, signal ? { signal } : {});
}

/**
 * The consent request `requestId`. Read once per page: a request is single use, so a refetch after the
 * sign-in would only report it used while the browser is already leaving for the app.
 */
export const authRequestQuery = (requestId: string) =>
  queryOptions({
    queryKey: queryKeys.cappAuthRequest(requestId),
    queryFn: ({ signal }) => getAuthRequest(requestId, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useAuthRequest(requestId: string) {
  return useQuery(authRequestQuery(requestId));
}
