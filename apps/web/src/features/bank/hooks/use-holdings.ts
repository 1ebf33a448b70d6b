/** The member's holdings: every balance above 0, with the currency list and `me` behind them. */
import type { Currency } from '@starlight/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { refetchIfUnknown, useCurrencies } from '../../../lib/currencies.ts';
import { useMe } from '../../../lib/me.ts';
import { useSession } from '../../../lib/session.ts';

export interface Holding {
  currency: Currency;
  amount: string;
}

/**
 * Every balance above 0 (`all`: My Tokens and the dashboard list the same holdings, Credits and chips
 * included, whatever their currency allows); `refresh` reloads the balances and the currency list.
 */
export function useHoldings() {
  const me = useMe();
  const user = useSession((s) => s.user);
  const currencies = useCurrencies();
  const balances = (me.data ?? user)?.balances ?? [];
  const client = useQueryClient();
  // A balance in a currency the (day-old) list lacks: fetch the list again.
  const balanceIds = balances.map((b) => b.currencyId).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the ids or the list change
  useEffect(() => {
    if (balanceIds) refetchIfUnknown(client, balanceIds.split(',').map(Number));
  }, [balanceIds, currencies.data, client]);
  /** Every non-zero balance (Credits too, which cannot be moved). */
  const all: Holding[] = [];
  for (const b of balances) {
    const currency = currencies.byId.get(b.currencyId);
    if (currency && b.amount !== '0') all.push({ currency, amount: b.amount });
  }
  const refresh = async () => {
    await Promise.all([currencies.refresh(), me.refetch()]);
  };
  return { all, currencies, me, refresh };
}
