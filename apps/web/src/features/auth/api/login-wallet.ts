/** POST /api/user/loginWallet: signs in the account of the wallet that signed the issued message. */
import type { AuthResponse, LoginWalletRequest } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** Signs in with a wallet signature; refused with the server's message (`Wallet Authentication: Failed`). */
export function loginWallet(body: LoginWalletRequest): Promise<AuthResponse> {
  return api<AuthResponse>('POST', '/user/loginWallet', body);
}

/** The wallet sign-in mutation. */
export function useLoginWallet() {
  return useMutation({ mutationFn: loginWallet });
}
