/** POST /api/cex/placeOrder (member) with an Idempotency-Key (DESIGN §3): the order and the server's message. */
import type { PlaceOrderRequest, PlaceOrderResponse } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { useRefreshAfterOrder } from './refresh-after-order.ts';

/** Places an order; refused with the server's message (funds, frozen pair, precision). */
export function placeOrder(body: PlaceOrderRequest, idempotencyKey: string): Promise<PlaceOrderResponse> {
  return api<PlaceOrderResponse>('POST', '/cex/placeOrder', body, { idempotencyKey });
}

/** The mutation; on success the exchange lists and the balances are refetched. */
export function usePlaceOrder() {
  const refresh = useRefreshAfterOrder();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: PlaceOrderRequest; idempotencyKey: string }) =>
      placeOrder(body, idempotencyKey),
    onSuccess: refresh,
  });
}
