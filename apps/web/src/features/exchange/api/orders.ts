/**
 * Orders (SPEC §7 Exchange): the public book (POST getOrders), the member's own (GET getUserOrders),
 * placeOrder, cancelOrder and the admin's payoutOrder. Money-moving calls carry an Idempotency-Key.
 */
import type {
  GetOrdersResponse,
  Order,
  OrderResponse,
  PlaceOrderRequest,
  PlaceOrderResponse,
  UserOrdersResponse,
} from '@starlight/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.ts';

export interface Book {
  buys: Order[];
  sells: Order[];
}

export function getOrders(pair: string): Promise<GetOrdersResponse> {
  return api<GetOrdersResponse>('POST', '/cex/getOrders', { pair });
}

export const bookQuery = (pair: string) =>
  queryOptions({
    queryKey: queryKeys.exchange.book(pair),
    queryFn: async (): Promise<Book> => (await getOrders(pair)).orders,
  });

/** The open book of a pair (null pair: idle). */
export function useBook(pair: string | null) {
  return useQuery({ ...bookQuery(pair ?? ''), enabled: Boolean(pair) });
}

export function getUserOrders(): Promise<UserOrdersResponse> {
  return api<UserOrdersResponse>('GET', '/cex/getUserOrders');
}

/** The signed-in member's orders on every pair (the live feed pushes the same whole list). */
export function useMyOrders() {
  const token = useSession((s) => s.token);
  return useQuery({
    queryKey: queryKeys.exchange.myOrders(token),
    enabled: Boolean(token),
    queryFn: async () => (await getUserOrders()).orders,
  });
}

export function placeOrder(body: PlaceOrderRequest, idempotencyKey: string): Promise<PlaceOrderResponse> {
  return api<PlaceOrderResponse>('POST', '/cex/placeOrder', body, { idempotencyKey });
}

export function cancelOrder(orderId: string, idempotencyKey: string): Promise<OrderResponse> {
  return api<OrderResponse>('POST', '/cex/cancelOrder', { orderId }, { idempotencyKey });
}

export function payoutOrder(orderId: string, idempotencyKey: string): Promise<OrderResponse> {
  return api<OrderResponse>('POST', '/cex/payoutOrder', { orderId }, { idempotencyKey });
}
