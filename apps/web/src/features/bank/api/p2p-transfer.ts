/** POST /api/bank/p2pTransfer (member) with an Idempotency-Key (DESIGN §3): `{senderUser, message}`. */
import type { P2pTransferRequest, User } from '@starlight/shared';
import { api } from '../../../lib/api.ts';
import { useIdempotentMutation } from '../../../lib/use-idempotency-key.ts';
import { useRefreshAfterTransfer } from './refresh-after-transfer.ts';

export interface TransferResult {
  senderUser: User;
  message: string;
}

/** Sends `amount` of a currency to a member by nickname; refused with the server's message. */
export function p2pTransfer(body: P2pTransferRequest, idempotencyKey: string): Promise<TransferResult> {
  return api<TransferResult>('POST', '/bank/p2pTransfer', body, { idempotencyKey });
}

/** The mutation (variables: the body, keyed per submission); on success the sender's balances and history refresh. */
export function useP2pTransfer() {
  const refresh = useRefreshAfterTransfer();
  return useIdempotentMutation({ send: p2pTransfer, onSuccess: refresh });
}
