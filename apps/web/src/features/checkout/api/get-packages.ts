/**
 * GET /api/checkout/packages/fetch (public; DESIGN §7): the packages on sale, every live one for an
 * admin, and the payment providers a purchase can use. Shared by the member's /checkout and the admin's
 * Checkout Control.
 */
import type { PackagesResponse } from '@starlight/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.ts';

/** Fetches the packages the caller may see. */
export function fetchPackages(signal?: AbortSignal): Promise<PackagesResponse> {
  return api<PackagesResponse>('GET', '/checkout/packages/fetch', undefined, signal ? { signal } : {});
}

/** The packages `token`'s session may see (keyed by it: an admin sees unpublished ones too). */
export const packagesQuery = (token: string | null) =>
  queryOptions({
    queryKey: queryKeys.checkout.packages(token),
    queryFn: ({ signal }) => fetchPackages(signal),
    select: (res) => res.packages,
  });

/** The packages as a query (data: CheckoutPackage[]). */
export function usePackages() {
  return useQuery(packagesQuery(useSession((s) => s.token)));
}

/**
 * The provider ids a purchase can use now, from the same response (data: ProviderId[], ascending;
 * empty when the server has no payment provider configured).
 */
export function usePaymentProviders() {
  return useQuery({ ...packagesQuery(useSession((s) => s.token)), select: (res) => res.providers });
}
