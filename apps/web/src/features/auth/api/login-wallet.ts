/**
 * POST /api/user/loginWallet: signs in the account of the wallet that signed the issued message:
 * `{user, token, message}`, or with `cAppAuthRequest` (DESIGN §7) `{url, message}` and no session.
 */
import type { LoginResponse, LoginWalletRequest } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** Signs in with a wallet signature; refused with the server's message (`Wallet Authentication: Failed`). */
export function loginWallet(body: LoginWalletRequest): Promise<LoginResponse> {
  return api<LoginResponse>('POST', '/user/loginWallet', body);
}

/** The wallet sign-in mutation. */
export function useLoginWallet() {
  return useMutation({ mutationFn: loginWallet });
}
