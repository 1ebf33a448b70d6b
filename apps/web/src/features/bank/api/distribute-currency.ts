/**
 * POST /api/bank/distributeCurrency (member) with an Idempotency-Key (DESIGN §3): an amount shared among
 * a currency's holders pro rata; `{senderUser, message}`.
 */
import type { DistributeCurrencyRequest } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api, newIdempotencyKey } from '../../../lib/api.ts';
import type { TransferResult } from './p2p-transfer.ts';
import { useRefreshAfterTransfer } from './refresh-after-transfer.ts';

/** Distributes; refused with the server's message (funds, no holders, frozen currency). */
export function distributeCurrency(
  body: DistributeCurrencyRequest,
  idempotencyKey = newIdempotencyKey(),
): Promise<TransferResult> {
  return api<TransferResult>('POST', '/bank/distributeCurrency', body, { idempotencyKey });
}

/** The mutation; on success the sender's balances and history are refreshed. */
export function useDistributeCurrency() {
  const refresh = useRefreshAfterTransfer();
  return useMutation({
    mutationFn: (body: DistributeCurrencyRequest) => distributeCurrency(body),
    onSuccess: refresh,
  });
}
