/**
 * A member's notifications (DESIGN §11.3): `POST /api/user/notifications {paging, unreadOnly?}`,
 * `POST notifications/read {ids?}`; the live push is lib/notifications-live.ts.
 */
import type { NotificationsRequest, NotificationsResponse, ReadNotificationsResponse } from '@starlight/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { BELL_LIMIT } from '../../../lib/notifications-live.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.ts';

/** A page of the caller's notifications (newest first) with `total` and `unread`. */
export function useNotifications(body: NotificationsRequest, enabled = true) {
  const token = useSession((s) => s.token);
  return useQuery({
    queryKey: queryKeys.notifications(token, body),
    enabled: Boolean(token) && enabled,
    queryFn: () => api<NotificationsResponse>('POST', '/user/notifications', body),
  });
}

/** The bell's list: the newest `BELL_LIMIT`, read or not, with the unread count. */
export function useBellNotifications() {
  return useNotifications({ paging: { limit: BELL_LIMIT, page: 1 } });
}

/** Marks `ids` read (all of them when undefined); every list on screen is read again after. */
export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids?: string[]) =>
      api<ReadNotificationsResponse>('POST', '/user/notifications/read', ids ? { ids } : {}),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.notificationsAll }),
  });
}
