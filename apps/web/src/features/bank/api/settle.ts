/** POST /api/bank/settle (admin) with an Idempotency-Key: approve or refuse a pending settlement, once. */
import type { SettleRequest, SettleResponse } from '@starlight/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, newIdempotencyKey } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Approves or refuses a settlement with a note. */
export function settle(body: SettleRequest, idempotencyKey = newIdempotencyKey()): Promise<SettleResponse> {
  return api<SettleResponse>('POST', '/bank/settle', body, { idempotencyKey });
}

/** The mutation; the settlements list, the ledger pages and the stats refresh after it. */
export function useSettle() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SettleRequest) => settle(body),
    onSuccess: async () => {
      await Promise.all(
        [queryKeys.settlements, queryKeys.transactionsAll, queryKeys.currencyStats, queryKeys.adminLogs].map(
          (queryKey) => client.invalidateQueries({ queryKey }),
        ),
      );
    },
  });
}
