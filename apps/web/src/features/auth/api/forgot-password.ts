/** POST /api/user/forgotPassword `{email}` -> `{message}` (the same answer for any address). */
import type { ForgotPasswordRequest } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** Asks for a password reset link to be mailed to `email`. */
export function forgotPassword(body: ForgotPasswordRequest): Promise<{ message: string }> {
  return api<{ message: string }>('POST', '/user/forgotPassword', body);
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
