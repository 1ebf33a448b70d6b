/** POST /api/cex/getOrders (public): the open book of a pair, best price first on each side. */
import type { GetOrdersResponse, Order } from '@starlight/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export interface Book {
  buys: Order[];
  sells: Order[];
}

/** Fetches the book of `pair`. */
export function getOrders(pair: string): Promise<GetOrdersResponse> {
  return api<GetOrdersResponse>('POST', '/cex/getOrders', { pair });
}

/** The book's query; the live feed pushes fresh books into the same key. */
export const bookQuery = (pair: string) =>
  queryOptions({
    queryKey: queryKeys.exchange.book(pair),
    queryFn: async (): Promise<Book> => (await getOrders(pair)).orders,
  });

/** The open book of a pair (null pair: idle). */
export function useBook(pair: string | null) {
  return useQuery({ ...bookQuery(pair ?? ''), enabled: Boolean(pair) });
}
