/**
 * POST /api/user/newApiKey {mfaCode?} -> `{apiKey}`: a new key; the old one stops working. With a second
 * factor on, `mfaCode` is the step-up code (DESIGN §11.1).
 */
import type { ApiKeyResponse, NewApiKeyRequest } from '@starlight/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.ts';

/** Makes a new API key for the member. */
export function newApiKey(body: NewApiKeyRequest = {}): Promise<ApiKeyResponse> {
  return api<ApiKeyResponse>('POST', '/user/newApiKey', body);
}

/** The mutation; the shown key becomes the new one. */
export function useNewApiKey() {
  const client = useQueryClient();
  const token = useSession((s) => s.token);
  return useMutation({
    mutationFn: newApiKey,
    onSuccess: (res) => client.setQueryData(queryKeys.apiKey(token), res),
    // The Default key is in the API keys list too.
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.apiKeys(token) }),
  });
}
