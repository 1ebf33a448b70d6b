/**
 * POST /api/cex/payoutOrder (admin): a Placed sell order settled off-platform (DESIGN §5); its escrow is
 * burned and the order becomes Filled. `{order, message}`.
 */
import type { OrderResponse } from '@starlight/shared';
import { api } from '../../../lib/api.ts';
import { useIdempotentMutation } from '../../../lib/use-idempotency-key.ts';
import { useRefreshAfterOrder } from './refresh-after-order.ts';

/** Pays out `orderId` under `idempotencyKey`. */
export function payoutOrder(orderId: string, idempotencyKey: string): Promise<OrderResponse> {
  return api<OrderResponse>('POST', '/cex/payoutOrder', { orderId }, { idempotencyKey });
}

/** The mutation (variables: the order id, keyed per order); on success the lists and balances refetch. */
export function usePayoutOrder() {
  const refresh = useRefreshAfterOrder();
  return useIdempotentMutation({ send: payoutOrder, target: (orderId) => orderId, onSuccess: refresh });
}
