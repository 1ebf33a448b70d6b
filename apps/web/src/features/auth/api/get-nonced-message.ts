/** POST /api/user/getNoncedMessage: the Sign-In with Ethereum message for a wallet (`{messageToSign, message}`). */
import type { NoncedMessageRequest, NoncedMessageResponse } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** Asks the server for the EIP-4361 message `walletAddress` must sign; its nonce lives 10 minutes. */
export function getNoncedMessage(body: NoncedMessageRequest): Promise<NoncedMessageResponse> {
  return api<NoncedMessageResponse>('POST', '/user/getNoncedMessage', body);
}

/** The nonce request as a mutation (each call issues a fresh single-use nonce, so nothing is cached). */
export function useGetNoncedMessage() {
  return useMutation({ mutationFn: getNoncedMessage });
}
