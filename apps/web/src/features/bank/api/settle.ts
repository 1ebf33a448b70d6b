/** POST /api/bank/settle (admin) with an Idempotency-Key: approve or refuse a pending settlement, once. */
import type { SettleRequest, SettleResponse } from '@starlight/shared';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useIdempotentMutation } from '../../../lib/use-idempotency-key.ts';

/** Approves or refuses a settlement with a note. */
export function settle(body: SettleRequest, idempotencyKey: string): Promise<SettleResponse> {
  return api<SettleResponse>('POST', '/bank/settle', body, { idempotencyKey });
}

/**
 * The mutation (variables: the body, keyed per settlement and body); the settlements list, the ledger
 * pages and the stats refresh after it.
 */
export function useSettle() {
  const client = useQueryClient();
  return useIdempotentMutation({
    send: settle,
    target: (body) => body.settlementId,
    onSuccess: async () => {
      await Promise.all(
        [queryKeys.settlements, queryKeys.transactionsAll, queryKeys.currencyStats, queryKeys.adminLogs].map(
          (queryKey) => client.invalidateQueries({ queryKey }),
        ),
      );
    },
  });
}
