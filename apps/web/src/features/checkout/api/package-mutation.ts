/** The shape every package mutation shares: on success the package lists and the admin logs refetch. */
import type { PackageResponse } from '@starlight/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-keys.ts';

/** A mutation of `request` that refreshes what a package change shows (Checkout Control, /checkout, Admin Logs). */
export function usePackageMutation<B>(request: (body: B) => Promise<PackageResponse>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: async () => {
      await Promise.all(
        [queryKeys.checkout.packagesAll, queryKeys.adminLogs].map((queryKey) => client.invalidateQueries({ queryKey })),
      );
    },
  });
}
