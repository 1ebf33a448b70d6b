/** POST /api/bank/withdraw (member) with an Idempotency-Key: `{senderUser, settlement, message}`. */
import type { WithdrawRequest, WithdrawResponse } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api, newIdempotencyKey } from '../../../lib/api.ts';
import { useRefreshAfterTransfer } from './refresh-after-transfer.ts';

/** Withdraws `amount` to a wallet: debited at once with the withdrawal tax, paid out by an admin. */
export function withdraw(body: WithdrawRequest, idempotencyKey = newIdempotencyKey()): Promise<WithdrawResponse> {
  return api<WithdrawResponse>('POST', '/bank/withdraw', body, { idempotencyKey });
}

/** The mutation; on success the member's balances and history are refreshed. */
export function useWithdraw() {
  const refresh = useRefreshAfterTransfer();
  return useMutation({ mutationFn: (body: WithdrawRequest) => withdraw(body), onSuccess: refresh });
}
