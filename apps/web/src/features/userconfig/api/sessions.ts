/** The member's sign-in sessions (DESIGN §11.1): `GET sessions`, `POST sessions/end`, `sessions/endOthers`. */
import type { SessionsResponse } from '@starlight/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.ts';

/** The caller's live sessions, newest first, the current one marked. */
export function useSessions() {
  const token = useSession((s) => s.token);
  return useQuery({
    queryKey: queryKeys.sessions(token),
    enabled: Boolean(token),
    queryFn: () => api<SessionsResponse>('GET', '/user/sessions'),
  });
}

/** Ends one session (`{_id}`) or every other one (`'others'`); the list is read again after. */
export function useEndSessions() {
  const client = useQueryClient();
  const token = useSession((s) => s.token);
  return useMutation({
    mutationFn: (which: { _id: string } | 'others') =>
      which === 'others'
        ? api<{ message: string }>('POST', '/user/sessions/endOthers', {})
        : api<{ message: string }>('POST', '/user/sessions/end', which),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.sessions(token) }),
  });
}
