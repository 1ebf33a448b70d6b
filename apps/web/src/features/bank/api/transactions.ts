/** POST /api/bank/transactions (own) and /alltransactions (admin): a page of ledger rows with `total`. */
import type { TransactionsRequest, TransactionsResponse } from '@starlight/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export function useTransactions(scope: 'own' | 'all', body: TransactionsRequest, enabled = true) {
  return useQuery({
    queryKey: ['transactions', scope, body],
    enabled,
    placeholderData: keepPreviousData,
    queryFn: () =>
      api<TransactionsResponse>('POST', scope === 'own' ? '/bank/transactions' : '/bank/alltransactions', body),
  });
}
