/** POST /api/bank/createCurrency (admin): `{currency, message}`; the server assigns the currencyId. */
import type { CreateCurrencyRequest, Currency } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export interface CurrencyResult {
  currency: Currency;
  message: string;
}

export function createCurrency(body: CreateCurrencyRequest): Promise<CurrencyResult> {
  return api<CurrencyResult>('POST', '/bank/createCurrency', body);
}

export function useCreateCurrency() {
  return useMutation({ mutationFn: createCurrency });
}
