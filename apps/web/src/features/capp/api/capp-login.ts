/**
 * POST /api/user/login with `cAppAuthRequest` (DESIGN §7): grants a creator app's consent request and
 * answers `{url, message}`, the app's redirect URL with a single-use code. No session is opened, so
 * nothing is stored: the page sends the browser to `url`.
 */
import type { CappLoginResponse, LoginRequest } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export type CappLoginRequest = Omit<LoginRequest, 'cAppAuthRequest'> & { cAppAuthRequest: string };

/** Signs in for the app; refused with the server's message (`Incorrect password`, a used or expired request). */
export function cappLogin(body: CappLoginRequest): Promise<CappLoginResponse> {
  return api<CappLoginResponse>('POST', '/user/login', body);
}

/** The consent sign-in mutation (its `isPending` drives the button). */
export function useCappLogin() {
  return useMutation({ mutationFn: cappLogin });
}
