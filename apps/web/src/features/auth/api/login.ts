/**
 * POST /api/user/login by nickname or e-mail: `{user, token, message}`, or for an account with a second
 * factor `{mfaRequired, mfaToken, message}` (DESIGN §11.1: `login/mfa` finishes it).
 */
import type { AuthResponse, LoginRequest, MfaRequiredResponse } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** Signs in; refused with the server's message (wrong credentials, locked account). */
export function login(body: LoginRequest): Promise<AuthResponse | MfaRequiredResponse> {
  return api<AuthResponse | MfaRequiredResponse>('POST', '/user/login', body);
}

/** The login mutation (its `isPending` drives the button). */
export function useLogin() {
  return useMutation({ mutationFn: login });
}
