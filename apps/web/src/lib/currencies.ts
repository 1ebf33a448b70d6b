/**
 * GET /api/bank/currencies (public). SPEC §4: the list is refetched at most once per 24 hours
 * (kept in localStorage as `currencies` and `nextGetCurrencies`); `refresh` forces a fetch. A currency
 * created or changed meanwhile still reaches an open page: the socket pushes it (`applyPushedCurrencies`),
 * and a balance in a currency the list lacks refetches it (`refetchIfUnknown`).
 */
import type { Currency } from '@starlight/shared';
import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
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

/**
 * Puts currencies the socket pushed (its `currencies` message: each whole, as the list has it) into the
 * cached list, replacing by `currencyId` and adding new ones in id order; the stored copy follows and
 * keeps its 24-hour window. With no list loaded, the stored copy is dropped, so the next read fetches.
 */
export function applyPushedCurrencies(client: QueryClient, pushed: readonly Currency[]): void {
  const current = client.getQueryData<Currency[]>(queryKeys.currencies);
  if (!current) {
    clearCurrencyCache();
    void client.invalidateQueries({ queryKey: queryKeys.currencies });
    return;
  }
  const byId = new Map(current.map((c) => [c.currencyId, c]));
  for (const c of pushed) byId.set(c.currencyId, c);
  const next = [...byId.values()].sort((a, b) => a.currencyId - b.currencyId);
  client.setQueryData(queryKeys.currencies, next);
  localStorage.setItem('currencies', JSON.stringify(next));
}

/** Currency ids a refetch was already asked for, so an id the server does not list is asked for once. */
const askedFor = new Set<number>();

/**
 * The fallback when a push was missed (socket down): if `ids` (a member's balances) name a currency
 * the loaded list lacks, the list is fetched again past its 24-hour window, once per unknown id.
 */
export function refetchIfUnknown(client: QueryClient, ids: Iterable<number>): void {
  const list = client.getQueryData<Currency[]>(queryKeys.currencies);
  if (!list) return;
  const known = new Set(list.map((c) => c.currencyId));
  const missing = [...ids].filter((id) => !known.has(id) && !askedFor.has(id));
  if (missing.length === 0) return;
  for (const id of missing) askedFor.add(id);
  clearCurrencyCache();
  void client.invalidateQueries({ queryKey: queryKeys.currencies });
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
