/** POST /api/user/updateProfile `{isAnonymous}` -> `{user, message}`; the stored user follows. */
import type { User } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { useSession } from '../../../lib/session.ts';

export interface UpdateProfileResult {
  user: User;
  message: string;
}

/** Sets the member's privacy flag (SPEC §2 Settings). */
export function updateProfile(body: { isAnonymous: boolean }): Promise<UpdateProfileResult> {
  return api<UpdateProfileResult>('POST', '/user/updateProfile', body);
}

/** The mutation; on success the session's user is replaced with the server's. */
export function useUpdateProfile() {
  return useMutation({ mutationFn: updateProfile, onSuccess: (res) => useSession.getState().setUser(res.user) });
}
