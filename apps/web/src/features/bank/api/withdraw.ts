/** POST /api/bank/withdraw (member) with an Idempotency-Key: `{senderUser, settlement, message}`. */
import type { WithdrawRequest, WithdrawResponse } from '@starlight/shared';
import { api } from '../../../lib/api.ts';
import { useIdempotentMutation } from '../../../lib/use-idempotency-key.ts';
import { useRefreshAfterTransfer } from './refresh-after-transfer.ts';

/** Withdraws `amount` to a wallet: debited at once with the withdrawal tax, paid out by an admin. */
export function withdraw(body: WithdrawRequest, idempotencyKey: string): Promise<WithdrawResponse> {
  return api<WithdrawResponse>('POST', '/bank/withdraw', body, { idempotencyKey });
}

/** The mutation (variables: the body, keyed per submission); on success balances and history refresh. */
export function useWithdraw() {
  const refresh = useRefreshAfterTransfer();
  return useIdempotentMutation({ send: withdraw, onSuccess: refresh });
}
