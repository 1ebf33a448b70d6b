/**
 * POST /api/bank/distributeCurrency (member) with an Idempotency-Key (DESIGN §3): an amount shared among
 * a currency's holders pro rata; `{senderUser, message}`.
 */
import type { DistributeCurrencyRequest } from '@starlight/shared';
import { api } from '../../../lib/api.ts';
import { useIdempotentMutation } from '../../../lib/use-idempotency-key.ts';
import type { TransferResult } from './p2p-transfer.ts';
import { useRefreshAfterTransfer } from './refresh-after-transfer.ts';

/** Distributes; refused with the server's message (funds, no holders, frozen currency). */
export function distributeCurrency(body: DistributeCurrencyRequest, idempotencyKey: string): Promise<TransferResult> {
  return api<TransferResult>('POST', '/bank/distributeCurrency', body, { idempotencyKey });
}

/** The mutation (variables: the body, keyed per submission); on success balances and history refresh. */
export function useDistributeCurrency() {
  const refresh = useRefreshAfterTransfer();
  return useIdempotentMutation({ send: distributeCurrency, onSuccess: refresh });
}
