/** POST /api/bank/deposit (member) with an Idempotency-Key: `{settlement, message}`; credits nothing yet. */
import type { DepositRequest, DepositResponse } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api, newIdempotencyKey } from '../../../lib/api.ts';

/** Claims a deposit from a wallet; an admin approves it before anything is credited. */
export function deposit(body: DepositRequest, idempotencyKey = newIdempotencyKey()): Promise<DepositResponse> {
  return api<DepositResponse>('POST', '/bank/deposit', body, { idempotencyKey });
}

export function useDeposit() {
  return useMutation({ mutationFn: (body: DepositRequest) => deposit(body) });
}
