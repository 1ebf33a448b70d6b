/**
 * POST /api/checkout/sandbox/{checkoutId}/{pay|fail|delay} (member; DESIGN §7): the sandbox provider's
 * buttons. The server signs the event a provider would send and applies it: `{outcome, message}`.
 */
import type { SandboxAction } from '@starlight/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export function sandboxAction(
  checkoutId: string,
  action: SandboxAction,
): Promise<{ outcome: string; message: string }> {
  return api('POST', `/checkout/sandbox/${encodeURIComponent(checkoutId)}/${action}`, {});
}

/** The mutation; balances and the checkout lists refresh after it. */
export function useSandboxAction(checkoutId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: SandboxAction) => sandboxAction(checkoutId, action),
    onSuccess: () =>
      Promise.all(
        [queryKeys.meAll, queryKeys.transactionsAll, queryKeys.checkout.transactionsAll].map((queryKey) =>
          client.invalidateQueries({ queryKey }),
        ),
      ),
  });
}
