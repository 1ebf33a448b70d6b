/**
 * POST /api/user/sendVerificationEmail -> `{message}`: mails the signed-in member a verification link
 * (SPEC §2 My Info's Verify Email button and the verify popup of SPEC §4 share it).
 */
import { useMutation } from '@tanstack/react-query';
import { api } from './api.ts';

/** Asks the server to mail the member's own address a link (valid 24 hours). */
export function sendVerificationEmail(): Promise<{ message: string }> {
  return api<{ message: string }>('POST', '/user/sendVerificationEmail', {});
}

/** The mutation: `isPending` while the mail is on its way. */
export function useSendVerificationEmail() {
  return useMutation({ mutationFn: sendVerificationEmail });
}
