/** POST /api/user/verifyEmail `{token}` -> `{message}`. */
import type { VerifyEmailRequest } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { useSession } from '../../../lib/session.ts';

/** Verifies the e-mail a link was sent to. */
export function verifyEmail(body: VerifyEmailRequest): Promise<{ message: string }> {
  return api<{ message: string }>('POST', '/user/verifyEmail', body);
}

/** The mutation; a successful verification clears the stored session (SPEC §4 Session). */
export function useVerifyEmail() {
  return useMutation({ mutationFn: verifyEmail, onSuccess: () => useSession.getState().clear() });
}
