/** The member's API keys (DESIGN §11.2): `GET apiKeys`, `POST apiKeys/create`, `POST apiKeys/revoke`. */
import type { ApiKeysResponse, CreateApiKeyRequest, CreateApiKeyResponse } from '@starlight/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.ts';

/** The caller's keys that are not revoked, newest first. */
export function useApiKeys() {
  const token = useSession((s) => s.token);
  return useQuery({
    queryKey: queryKeys.apiKeys(token),
    enabled: Boolean(token),
    queryFn: () => api<ApiKeysResponse>('GET', '/user/apiKeys'),
  });
}

/** Makes a key; the answer holds its secret, shown once. The list is read again after. */
export function useCreateApiKey() {
  const client = useQueryClient();
  const token = useSession((s) => s.token);
  return useMutation({
    mutationFn: (body: CreateApiKeyRequest) => api<CreateApiKeyResponse>('POST', '/user/apiKeys/create', body),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.apiKeys(token) }),
  });
}

/** Revokes one key (`{_id}`); it stops working at once. The list is read again after. */
export function useRevokeApiKey() {
  const client = useQueryClient();
  const token = useSession((s) => s.token);
  return useMutation({
    mutationFn: (body: { _id: string }) => api<{ message: string }>('POST', '/user/apiKeys/revoke', body),
    // Revoking the Default key empties SPEC's key panel too.
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.apiKeys(token) }),
        client.invalidateQueries({ queryKey: queryKeys.apiKey(token) }),
      ]),
  });
}
