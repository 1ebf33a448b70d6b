/** POST /api/user/registerWallet: a wallet-only account, signed in at once (`{user, token, message}`). */
import type { AuthResponse, RegisterWalletRequest } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** Registers the wallet that signed the issued message; refused with the server's message (bad signature, wallet taken). */
export function registerWallet(body: RegisterWalletRequest): Promise<AuthResponse> {
  return api<AuthResponse>('POST', '/user/registerWallet', body);
}

/** The wallet registration mutation. */
export function useRegisterWallet() {
  return useMutation({ mutationFn: registerWallet });
}
