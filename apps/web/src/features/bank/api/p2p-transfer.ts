/** POST /api/bank/p2pTransfer (member) with an Idempotency-Key (DESIGN §3): `{senderUser, message}`. */
import type { P2pTransferRequest, User } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api, newIdempotencyKey } from '../../../lib/api.ts';
import { useRefreshAfterTransfer } from './refresh-after-transfer.ts';

export interface TransferResult {
  senderUser: User;
  message: string;
}

/** Sends `amount` of a currency to a member by nickname; refused with the server's message. */
export function p2pTransfer(body: P2pTransferRequest, idempotencyKey = newIdempotencyKey()): Promise<TransferResult> {
  return api<TransferResult>('POST', '/bank/p2pTransfer', body, { idempotencyKey });
}

/** The mutation; on success the sender's balances and history are refreshed. */
export function useP2pTransfer() {
  const refresh = useRefreshAfterTransfer();
  return useMutation({ mutationFn: (body: P2pTransferRequest) => p2pTransfer(body), onSuccess: refresh });
}
