/** POST /api/user/login by nickname or e-mail: `{user, token, message}`. */
import type { AuthResponse, LoginRequest } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** Signs in; refused with the server's message (wrong credentials, locked account). */
export function login(body: LoginRequest): Promise<AuthResponse> {
  return api<AuthResponse>('POST', '/user/login', body);
}

/** The login mutation (its `isPending` drives the button). */
export function useLogin() {
  return useMutation({ mutationFn: login });
}
