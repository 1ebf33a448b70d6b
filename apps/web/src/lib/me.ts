/** GET /api/user/me: the signed-in member with fresh balances; refreshes the stored user. */
import type { User } from '@starlight/shared';
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

/** The signed-in member, fresh from the server (undefined while loading or signed out). */
export function useMe() {
  const token = useSession((s) => s.token);
  return useQuery(meQuery(token));
}
