/** POST /api/bank/transactions (own) and /alltransactions (admin): a page of ledger rows with `total`. */
import type { TransactionsRequest, TransactionsResponse } from '@starlight/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api.ts';
import { queryKeys } from '../query-keys.ts';

export type TransactionsScope = 'own' | 'all';

/** Fetches a page: `own` the member's rows, `all` every member's (admin only, else 403). */
export function getTransactions(scope: TransactionsScope, body: TransactionsRequest): Promise<TransactionsResponse> {
  return api<TransactionsResponse>('POST', scope === 'own' ? '/bank/transactions' : '/bank/alltransactions', body);
}

/** The page's query; the previous page stays on screen while the next one loads. */
export const transactionsQuery = (scope: TransactionsScope, body: TransactionsRequest) =>
  queryOptions({
    queryKey: queryKeys.transactions(scope, body),
    queryFn: () => getTransactions(scope, body),
    placeholderData: keepPreviousData,
  });

/** A page of ledger rows (see `getTransactions`). */
export function useTransactions(scope: TransactionsScope, body: TransactionsRequest) {
  return useQuery(transactionsQuery(scope, body));
}
