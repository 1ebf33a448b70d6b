/** POST /api/bank/modifyCurrency (admin): currencyId and the changed fields, never the ticker. */
import type { ModifyCurrencyRequest } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { CurrencyResult } from './create-currency.ts';

export function modifyCurrency(body: ModifyCurrencyRequest): Promise<CurrencyResult> {
  return api<CurrencyResult>('POST', '/bank/modifyCurrency', body);
}

export function useModifyCurrency() {
  return useMutation({ mutationFn: modifyCurrency });
}
