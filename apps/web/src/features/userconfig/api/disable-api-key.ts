/** GET /api/user/disableApiKeyAccess -> `{message}`: the member's key is removed. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.ts';

/** Removes the member's API key. */
export function disableApiKey(): Promise<{ message: string }> {
  return api<{ message: string }>('GET', '/user/disableApiKeyAccess');
}

/** The mutation; the panel then shows 'No Key'. */
export function useDisableApiKey() {
  const client = useQueryClient();
  const token = useSession((s) => s.token);
  return useMutation({
    mutationFn: disableApiKey,
    onSuccess: () => client.setQueryData(queryKeys.apiKey(token), { apiKey: null, message: 'No Key' }),
    // The Default key is in the API keys list too.
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.apiKeys(token) }),
  });
}
