/**
 * POST /api/user/login/mfa (DESIGN §11.1): finishes a sign-in that asked for a second factor, with the
 * `mfaToken` it answered and a code or recovery code: `{user, token, message}`, or with `cAppAuthRequest`
 * the creator app's `{url, message}`.
 */
import type { LoginMfaRequest, LoginResponse } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** Sends the code; refused with the server's message (`Invalid code`, an expired sign-in, 429). */
export function loginMfa(body: LoginMfaRequest): Promise<LoginResponse> {
  return api<LoginResponse>('POST', '/user/login/mfa', body);
}

/** The code step's mutation. */
export function useLoginMfa() {
  return useMutation({ mutationFn: loginMfa });
}
