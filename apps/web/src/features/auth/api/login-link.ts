/** POST /api/user/loginLink `{token}` -> `{user, token, message}`: signs in once with a mailed link. */
import type { AuthResponse, LoginLinkRequest } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** Signs in with the token of a sign-in link (mailed when the sign-in limits stopped a right password). */
export function loginLink(body: LoginLinkRequest): Promise<AuthResponse> {
  return api<AuthResponse>('POST', '/user/loginLink', body);
}

export function useLoginLink() {
  return useMutation({ mutationFn: loginLink });
}
