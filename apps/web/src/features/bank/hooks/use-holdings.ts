/** The member's holdings: balances above 0 in currencies that can move, with the list and `me` behind them. */
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

/** SPEC §2: balances above 0 in currencies that allow transfer, withdraw or deposit; `refresh` reloads both lists. */
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
  /** Every non-zero balance (the dashboard's summary: Credits too, which cannot be moved). */
  const all: Holding[] = [];
  for (const b of balances) {
    const currency = currencies.byId.get(b.currencyId);
    if (currency && b.amount !== '0') all.push({ currency, amount: b.amount });
  }
  /** SPEC §2 My Tokens: those of currencies that allow transfer, withdraw or deposit. */
  const holdings = all.filter(({ currency }) => currency.canTransfer || currency.canWithdraw || currency.canDeposit);
  const refresh = async () => {
    await Promise.all([currencies.refresh(), me.refetch()]);
  };
  return { holdings, all, currencies, me, refresh };
}
