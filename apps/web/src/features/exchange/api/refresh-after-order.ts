/** What an order of ours changes: every exchange list (books, depth, own orders) and the member's balances. */
import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-keys.ts';

/** A function that refetches what placing, cancelling or paying out an order changed. */
export function useRefreshAfterOrder() {
  const client = useQueryClient();
  return async () => {
    await Promise.allSettled([
      client.invalidateQueries({ queryKey: queryKeys.exchange.all }),
      client.invalidateQueries({ queryKey: queryKeys.meAll }),
    ]);
  };
}
