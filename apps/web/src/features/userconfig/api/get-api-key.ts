/** GET /api/user/getApiKey -> `{apiKey}` (null when the member has none). */
import type { ApiKeyResponse } from '@starlight/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.ts';

/** Fetches the member's API key. */
export function getApiKey(): Promise<ApiKeyResponse> {
  return api<ApiKeyResponse>('GET', '/user/getApiKey');
}

/** The query of the key of the member signed in with `token`. */
export const apiKeyQuery = (token: string | null) =>
  queryOptions({ queryKey: queryKeys.apiKey(token), enabled: Boolean(token), queryFn: getApiKey });

/** The member's API key (`data.apiKey`, null when none); `refetch` is Get Key. */
export function useApiKey() {
  const token = useSession((s) => s.token);
  return useQuery(apiKeyQuery(token));
}
