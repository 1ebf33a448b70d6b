/** Sign-up, sign-in, session and profile endpoints of /api/user (SPEC §7 User). */
import type { AuthResponse, LoginRequest, RegisterRequest, User } from '@starlight/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { useSession } from '../../../lib/session.ts';

/** POST /api/user/register. */
export function registerAccount(body: RegisterRequest): Promise<AuthResponse> {
  return api<AuthResponse>('POST', '/user/register', body);
}

/** POST /api/user/login. */
export function login(body: LoginRequest): Promise<AuthResponse> {
  return api<AuthResponse>('POST', '/user/login', body);
}

/** POST /api/user/logout: ends the session on the server too. */
export function logout(): Promise<{ message: string }> {
  return api<{ message: string }>('POST', '/user/logout', {});
}

/** GET /api/user/me: the member with fresh balances; refreshes the stored user. */
export function useMe() {
  const token = useSession((s) => s.token);
  return useQuery({
    queryKey: ['me', token],
    enabled: Boolean(token),
    queryFn: async () => {
      const { user } = await api<{ user: User; message: string }>('GET', '/user/me');
      useSession.getState().setUser(user);
      return user;
    },
  });
}

/** POST /api/user/updateProfile {isAnonymous}. */
export function useUpdateProfile() {
  return useMutation({
    mutationFn: (body: { isAnonymous: boolean }) =>
      api<{ user: User; message: string }>('POST', '/user/updateProfile', body),
    onSuccess: (res) => useSession.getState().setUser(res.user),
  });
}
