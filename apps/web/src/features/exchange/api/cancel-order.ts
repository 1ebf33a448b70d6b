/** POST /api/cex/cancelOrder (the owner): the rest of a Placed order leaves escrow; `{order, message}`. */
import type { OrderResponse } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api, newIdempotencyKey } from '../../../lib/api.ts';
import { useRefreshAfterOrder } from './refresh-after-order.ts';

/** Cancels `orderId` under its own Idempotency-Key. */
export function cancelOrder(orderId: string, idempotencyKey: string = newIdempotencyKey()): Promise<OrderResponse> {
  return api<OrderResponse>('POST', '/cex/cancelOrder', { orderId }, { idempotencyKey });
}

/** The mutation (variables: the order id); on success the exchange lists and the balances are refetched. */
export function useCancelOrder() {
  const refresh = useRefreshAfterOrder();
  return useMutation({ mutationFn: (orderId: string) => cancelOrder(orderId), onSuccess: refresh });
}
