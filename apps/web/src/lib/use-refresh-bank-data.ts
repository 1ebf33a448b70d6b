/** After an admin changes a currency or its supply: reload the currency list, the stats and the logs. */
import { useQueryClient } from '@tanstack/react-query';
import { useCurrencies } from './currencies.ts';
import { queryKeys } from './query-keys.ts';

export function useRefreshBankData() {
  const client = useQueryClient();
  const { refresh } = useCurrencies();
  return async () => {
    await Promise.allSettled([
      refresh(),
      client.invalidateQueries({ queryKey: queryKeys.currencyStats }),
      client.invalidateQueries({ queryKey: queryKeys.transactionsAll }),
      client.invalidateQueries({ queryKey: queryKeys.meAll }),
    ]);
  };
}
