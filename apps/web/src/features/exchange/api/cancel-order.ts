/** POST /api/cex/cancelOrder (the owner): the rest of a Placed order leaves escrow; `{order, message}`. */
import type { OrderResponse } from '@starlight/shared';
import { api } from '../../../lib/api.ts';
import { useIdempotentMutation } from '../../../lib/use-idempotency-key.ts';
import { useRefreshAfterOrder } from './refresh-after-order.ts';

/** Cancels `orderId` under `idempotencyKey`. */
export function cancelOrder(orderId: string, idempotencyKey: string): Promise<OrderResponse> {
  return api<OrderResponse>('POST', '/cex/cancelOrder', { orderId }, { idempotencyKey });
}

/** The mutation (variables: the order id, keyed per order); on success the lists and balances refetch. */
export function useCancelOrder() {
  const refresh = useRefreshAfterOrder();
  return useIdempotentMutation({ send: cancelOrder, target: (orderId) => orderId, onSuccess: refresh });
}
