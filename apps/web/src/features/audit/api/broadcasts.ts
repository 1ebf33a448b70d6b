/**
 * The admin's broadcasts (DESIGN §11.3): `POST /api/audit/broadcast {title, body, link?, role?}` and the
 * list of those sent, `POST /api/audit/broadcasts {paging}`.
 */
import type { BroadcastRequest, BroadcastsResponse } from '@starlight/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** A page of the broadcasts sent, newest first. */
export function useBroadcasts(page: number, limit: number) {
  return useQuery({
    queryKey: [...queryKeys.broadcasts, page, limit],
    queryFn: () => api<BroadcastsResponse>('POST', '/audit/broadcasts', { paging: { limit, page } }),
  });
}

/** Sends a broadcast; the list of those sent and the admin log are read again. */
export function useSendBroadcast() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BroadcastRequest) => api<{ message: string }>('POST', '/audit/broadcast', body),
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.broadcasts }),
        client.invalidateQueries({ queryKey: queryKeys.adminLogs }),
      ]);
    },
  });
}
