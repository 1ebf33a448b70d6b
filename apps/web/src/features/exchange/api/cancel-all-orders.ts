/**
 * POST /api/cex/cancelAllOrders (member, DESIGN §11.4): every open order of the member, or those of one
 * pair, cancelled with their escrow returned; `{cancelled, message}`.
 */
import type { CancelAllOrdersRequest, CancelAllOrdersResponse } from '@starlight/shared';
import { api } from '../../../lib/api.ts';
import { useIdempotentMutation } from '../../../lib/use-idempotency-key.ts';
import { useRefreshAfterOrder } from './refresh-after-order.ts';

/** Cancels the open orders of `body.pair` (every pair without it) under `idempotencyKey`. */
export function cancelAllOrders(
  body: CancelAllOrdersRequest,
  idempotencyKey: string,
): Promise<CancelAllOrdersResponse> {
  return api<CancelAllOrdersResponse>('POST', '/cex/cancelAllOrders', body, { idempotencyKey });
}

/** The mutation (variables: the request body, keyed per pair); on success the lists and balances refetch. */
export function useCancelAllOrders() {
  const refresh = useRefreshAfterOrder();
  return useIdempotentMutation({
    send: cancelAllOrders,
    target: (body: CancelAllOrdersRequest) => `cancel-all:${body.pair ?? 'all'}`,
    onSuccess: refresh,
  });
}
