/**
 * GET /api/bank/currencies (public). SPEC §4: the list is refetched at most once per 24 hours
 * (kept in localStorage as `currencies` and `nextGetCurrencies`); `refresh` forces a fetch.
 */
import type { Currency } from '@starlight/shared';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './api.ts';
import { queryKeys } from './query-keys.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

async function fetchCurrencies(force: boolean): Promise<Currency[]> {
  const next = Number(localStorage.getItem('nextGetCurrencies') ?? 0);
  const cached = localStorage.getItem('currencies');
  if (!force && cached && next > Date.now()) return JSON.parse(cached) as Currency[];
  const { currencies } = await api<{ currencies: Currency[] }>('GET', '/bank/currencies');
  localStorage.setItem('currencies', JSON.stringify(currencies));
  localStorage.setItem('nextGetCurrencies', String(Date.now() + DAY_MS));
  return currencies;
}

/** Forgets the cached list (on sign-in and after an admin changes a currency). */
export function clearCurrencyCache(): void {
  localStorage.removeItem('currencies');
  localStorage.removeItem('nextGetCurrencies');
}

/** The currency list's query (served from localStorage while the 24-hour window lasts). */
export const currenciesQuery = queryOptions({ queryKey: queryKeys.currencies, queryFn: () => fetchCurrencies(false) });

/** The currency list with `byId` (currencyId -> Currency) and `refresh` (forces a fetch past the 24-hour cache). */
export function useCurrencies() {
  const client = useQueryClient();
  const query = useQuery(currenciesQuery);
  const refresh = async () => {
    clearCurrencyCache();
    await client.fetchQuery({ ...currenciesQuery, queryFn: () => fetchCurrencies(true), staleTime: 0 });
  };
  const byId = new Map((query.data ?? []).map((c) => [c.currencyId, c]));
  return { ...query, refresh, byId };
}
