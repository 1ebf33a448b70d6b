/** A member's API keys for an admin (DESIGN §11.2): `POST getUserApiKeys`, `POST revokeUserApiKey`. */
import type { ApiKeysResponse } from '@starlight/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** The keys of the member named `nickname` (never their secrets); idle while `nickname` is empty. */
export function useUserApiKeys(nickname: string) {
  return useQuery({
    queryKey: queryKeys.userApiKeys(nickname),
    enabled: nickname !== '',
    retry: false,
    queryFn: () => api<ApiKeysResponse>('POST', '/user/getUserApiKeys', { nickname }),
  });
}

/** Revokes one of a member's keys, written to the admin log; the list and the admin log refresh after. */
export function useRevokeUserApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { nickname: string; _id: string }) =>
      api<{ message: string }>('POST', '/user/revokeUserApiKey', body),
    onSettled: async (_data, _err, body) => {
      await Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.userApiKeys(body.nickname) }),
        client.invalidateQueries({ queryKey: queryKeys.adminLogs }),
      ]);
    },
  });
}
