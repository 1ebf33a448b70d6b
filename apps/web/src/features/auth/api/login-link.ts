/**
 * POST /api/user/loginLink `{token}` -> `{user, token, message}`: signs in once with a mailed link; for an
 * account with a second factor `{mfaRequired, mfaToken, message}` first (DESIGN §11.1).
 */
import type { AuthResponse, LoginLinkRequest, MfaRequiredResponse } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** Signs in with the token of a sign-in link (mailed when the sign-in limits stopped a right password). */
export function loginLink(body: LoginLinkRequest): Promise<AuthResponse | MfaRequiredResponse> {
  return api<AuthResponse | MfaRequiredResponse>('POST', '/user/loginLink', body);
}

export function useLoginLink() {
  return useMutation({ mutationFn: loginLink });
}
