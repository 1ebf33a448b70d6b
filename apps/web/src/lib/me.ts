/** GET /api/user/me: the signed-in member with fresh balances; refreshes the stored user. */
import type { CurrentSession, MeResponse, User } from '@starlight/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api.ts';
import { queryKeys } from './query-keys.ts';
import { useSession } from './session.ts';

/** Fetches the member and keeps the session's copy of the user in step. */
export async function getMe(): Promise<User> {
  const { user } = await api<{ user: User; message: string }>('GET', '/user/me');
  useSession.getState().setUser(user);
  return user;
}

/** The query of the member signed in with `token` (idle without one). */
export const meQuery = (token: string | null) =>
  queryOptions({ queryKey: queryKeys.me(token), enabled: Boolean(token), queryFn: getMe });

/**
 * The current session as `GET me` tells it (DESIGN §11.1): whether it passed a second factor and whether
 * the admin console needs one; null for a server that does not say.
 */
export function useMeSession() {
  const token = useSession((s) => s.token);
  return useQuery({
    queryKey: [...queryKeys.me(token), 'session'],
    enabled: Boolean(token),
    queryFn: async (): Promise<CurrentSession | null> => (await api<MeResponse>('GET', '/user/me')).session ?? null,
  });
}

/** The signed-in member, fresh from the server (undefined while loading or signed out). */
export function useMe() {
  const token = useSession((s) => s.token);
  return useQuery(meQuery(token));
}
