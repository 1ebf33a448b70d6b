/** POST /api/bank/deposit (member) with an Idempotency-Key: `{settlement, message}`; credits nothing yet. */
import type { DepositRequest, DepositResponse } from '@starlight/shared';
import { api } from '../../../lib/api.ts';
import { useIdempotentMutation } from '../../../lib/use-idempotency-key.ts';

/** Claims a deposit from a wallet; an admin approves it before anything is credited. */
export function deposit(body: DepositRequest, idempotencyKey: string): Promise<DepositResponse> {
  return api<DepositResponse>('POST', '/bank/deposit', body, { idempotencyKey });
}

/** The mutation (variables: the body, keyed per submission). */
export function useDeposit() {
  return useIdempotentMutation({ send: deposit });
}
