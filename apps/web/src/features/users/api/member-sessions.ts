/**
 * An admin's view of a member's sign-in sessions (DESIGN §11.1): `getUserSessions`, `endUserSessions`,
 * `resetUserMfa`, and `deleteUserAccount` (DESIGN §11.6) (each `{nickname}`; all but the first are written
 * to the admin log).
 */
import type {
  DeleteUserAccountRequest,
  ResetUserMfaRequest,
  SessionsResponse,
  UserSessionsRequest,
} from '@starlight/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** The live sessions of the member `nickname` (idle while it is null). */
export function useMemberSessions(nickname: string | null) {
  return useQuery({
    queryKey: queryKeys.adminUserSessions(nickname ?? ''),
    enabled: nickname !== null,
    retry: false,
    queryFn: () =>
      api<SessionsResponse>('POST', '/user/getUserSessions', {
        nickname: nickname ?? '',
      } satisfies UserSessionsRequest),
  });
}

/** After an admin action on `nickname`: their sessions and the admin log are read again. */
function refreshAfter(client: ReturnType<typeof useQueryClient>, nickname: string) {
  return Promise.all(
    [queryKeys.adminUserSessions(nickname), queryKeys.adminLogs].map((queryKey) =>
      client.invalidateQueries({ queryKey }),
    ),
  );
}

/** Ends every session of a member: they are signed out everywhere at once. */
export function useEndMemberSessions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UserSessionsRequest) => api<{ message: string }>('POST', '/user/endUserSessions', body),
    onSettled: (_data, _err, body) => refreshAfter(client, body.nickname),
  });
}

/** Turns a member's second factors off (TOTP, recovery codes, passkeys), for one who lost them. */
export function useResetMemberMfa() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ResetUserMfaRequest) => api<{ message: string }>('POST', '/user/resetUserMfa', body),
    onSettled: (_data, _err, body) => refreshAfter(client, body.nickname),
  });
}

/** Deletes (anonymises) a member's account that holds nothing; the server says what stands in the way. */
export function useDeleteMemberAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: DeleteUserAccountRequest) => api<{ message: string }>('POST', '/user/deleteUserAccount', body),
    onSettled: (_data, _err, body) => refreshAfter(client, body.nickname),
  });
}
