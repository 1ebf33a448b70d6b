/** POST /api/cex/placeOrder (member) with an Idempotency-Key (DESIGN §3): the order and the server's message. */
import type { PlaceOrderRequest, PlaceOrderResponse } from '@starlight/shared';
import { api } from '../../../lib/api.ts';
import { useIdempotentMutation } from '../../../lib/use-idempotency-key.ts';
import { useRefreshAfterOrder } from './refresh-after-order.ts';

/** Places an order; refused with the server's message (funds, frozen pair, precision). */
export function placeOrder(body: PlaceOrderRequest, idempotencyKey: string): Promise<PlaceOrderResponse> {
  return api<PlaceOrderResponse>('POST', '/cex/placeOrder', body, { idempotencyKey });
}

/** The mutation (variables: the body, keyed per submission); on success the lists and balances refetch. */
export function usePlaceOrder() {
  const refresh = useRefreshAfterOrder();
  return useIdempotentMutation({ send: placeOrder, onSuccess: refresh });
}
