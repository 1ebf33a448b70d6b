/** POST /api/checkout/buyPackage (member; DESIGN §7): `{link, checkout, message}`, the provider's payment page. */
import type { BuyPackageRequest, BuyPackageResponse } from '@starlight/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Opens a checkout of a package through provider 1 (crypto) or 2 (card). */
export function buyPackage(body: BuyPackageRequest): Promise<BuyPackageResponse> {
  return api<BuyPackageResponse>('POST', '/checkout/buyPackage', body);
}

export function useBuyPackage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BuyPackageRequest) => buyPackage(body),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.checkout.transactionsAll }),
  });
}
