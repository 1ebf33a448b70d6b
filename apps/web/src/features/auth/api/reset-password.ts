/** POST /api/user/resetPassword `{token, password}` -> `{message}`; every session of the account ends. */
import type { ResetPasswordRequest } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** Sets a new password with the token of a reset link. */
export function resetPassword(body: ResetPasswordRequest): Promise<{ message: string }> {
  return api<{ message: string }>('POST', '/user/resetPassword', body);
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
