/** POST /api/user/register: a new account, signed in at once (`{user, token, message}`). */
import type { AuthResponse, RegisterRequest } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** Registers; refused with the server's message (taken nickname or e-mail, bad referrer). */
export function registerAccount(body: RegisterRequest): Promise<AuthResponse> {
  return api<AuthResponse>('POST', '/user/register', body);
}

/** The register mutation (its `isPending` drives the button). */
export function useRegister() {
  return useMutation({ mutationFn: registerAccount });
}
