/**
 * POST /api/user/updateProfile -> `{user, token?, message}` (DESIGN §8). The stored user follows; a
 * password change answers a fresh token (the other sessions ended), which replaces the stored one.
 */
import type { UpdateProfileRequest, UpdateProfileResponse } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { useSession } from '../../../lib/session.ts';

/** Changes any of nickname, e-mail, password (with `currentPassword`) and the Private flag. */
export function updateProfile(body: UpdateProfileRequest): Promise<UpdateProfileResponse> {
  return api<UpdateProfileResponse>('POST', '/user/updateProfile', body);
}

/** The mutation; on success the session's user (and token, when renewed) are the server's. */
export function useUpdateProfile() {
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (res) => {
      if (res.token) useSession.getState().signIn(res.user, res.token);
      else useSession.getState().setUser(res.user);
    },
  });
}
