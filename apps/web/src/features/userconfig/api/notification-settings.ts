/** Which notifications also go by e-mail (DESIGN §11.3): `GET` and `POST /api/user/notificationSettings`. */
import type { NotificationSettingsRequest, NotificationSettingsResponse } from '@starlight/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.ts';

/** The caller's e-mail choice per kind (every kind named). */
export function useNotificationSettings() {
  const token = useSession((s) => s.token);
  return useQuery({
    queryKey: queryKeys.notificationSettings(token),
    enabled: Boolean(token),
    queryFn: () => api<NotificationSettingsResponse>('GET', '/user/notificationSettings'),
  });
}

/** Saves the kinds named in `email`; the answer (every kind) replaces the cached settings. */
export function useSaveNotificationSettings() {
  const client = useQueryClient();
  const token = useSession((s) => s.token);
  return useMutation({
    mutationFn: (body: NotificationSettingsRequest) =>
      api<NotificationSettingsResponse>('POST', '/user/notificationSettings', body),
    onSuccess: (res) => client.setQueryData(queryKeys.notificationSettings(token), res),
  });
}
