/**
 * POST /api/cex/payoutOrder (admin): a Placed sell order settled off-platform (DESIGN §5); its escrow is
 * burned and the order becomes Filled. `{order, message}`.
 */
import type { OrderResponse } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api, newIdempotencyKey } from '../../../lib/api.ts';
import { useRefreshAfterOrder } from './refresh-after-order.ts';

/** Pays out `orderId` under its own Idempotency-Key. */
export function payoutOrder(orderId: string, idempotencyKey: string = newIdempotencyKey()): Promise<OrderResponse> {
  return api<OrderResponse>('POST', '/cex/payoutOrder', { orderId }, { idempotencyKey });
}

/** The mutation (variables: the order id); on success the exchange lists and the balances are refetched. */
export function usePayoutOrder() {
  const refresh = useRefreshAfterOrder();
  return useMutation({ mutationFn: (orderId: string) => payoutOrder(orderId), onSuccess: refresh });
}
