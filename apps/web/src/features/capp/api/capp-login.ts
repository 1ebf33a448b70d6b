/**
 * POST /api/user/login with `cAppAuthRequest` (DESIGN §7): grants a creator app's consent request and
 * answers `{url, message}`, the app's redirect URL with a single-use code. No session is opened, so
 * nothing is stored: the page sends the browser to `url`. An account with a second factor answers
 * `{mfaRequired, mfaToken}` first, and `login/mfa` with the code grants it (DESIGN §11.1).
 */
import type { CappLoginResponse, LoginMfaRequest, LoginRequest, MfaRequiredResponse } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export type CappLoginRequest = Omit<LoginRequest, 'cAppAuthRequest'> & { cAppAuthRequest: string };

/** Signs in for the app; refused with the server's message (`Incorrect password`, a used or expired request). */
export function cappLogin(body: CappLoginRequest): Promise<CappLoginResponse | MfaRequiredResponse> {
  return api<CappLoginResponse | MfaRequiredResponse>('POST', '/user/login', body);
}

/** The second factor of a consent sign-in: `{url, message}`; refused with `Invalid code` or an expired sign-in. */
export function cappLoginMfa(body: LoginMfaRequest & { cAppAuthRequest: string }): Promise<CappLoginResponse> {
  return api<CappLoginResponse>('POST', '/user/login/mfa', body);
}

/** The code step's mutation. */
export function useCappLoginMfa() {
  return useMutation({ mutationFn: cappLoginMfa });
}

/** The consent sign-in mutation (its `isPending` drives the button). */
export function useCappLogin() {
  return useMutation({ mutationFn: cappLogin });
}
