/** After an admin changes a currency or its supply: reload the currency list, the stats and the logs. */
import { useQueryClient } from '@tanstack/react-query';
import { useCurrencies } from '../../bank/api/currencies.ts';
import { adminKeys } from '../api/keys.ts';

export function useRefreshBankData() {
  const client = useQueryClient();
  const { refresh } = useCurrencies();
  return async () => {
    await Promise.allSettled([
      refresh(),
      client.invalidateQueries({ queryKey: adminKeys.currencyStats }),
      client.invalidateQueries({ queryKey: ['transactions'] }),
      client.invalidateQueries({ queryKey: ['me'] }),
    ]);
  };
}
