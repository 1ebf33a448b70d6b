/** GET /api/user/newApiKey -> `{apiKey}`: a new key; the old one stops working. */
import type { ApiKeyResponse } from '@starlight/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.ts';

/** Makes a new API key for the member. */
export function newApiKey(): Promise<ApiKeyResponse> {
  return api<ApiKeyResponse>('GET', '/user/newApiKey');
}

/** The mutation; the shown key becomes the new one. */
export function useNewApiKey() {
  const client = useQueryClient();
  const token = useSession((s) => s.token);
  return useMutation({
    mutationFn: newApiKey,
    onSuccess: (res) => client.setQueryData(queryKeys.apiKey(token), res),
  });
}
