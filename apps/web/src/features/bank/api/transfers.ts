/** Money-moving member endpoints: p2pTransfer and distributeCurrency (SPEC §7 Bank). */
import type { DistributeCurrencyRequest, P2pTransferRequest, User } from '@starlight/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, newIdempotencyKey } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.ts';

/** POST /api/bank/p2pTransfer with an Idempotency-Key: `{senderUser, message}`. */
export function useP2pTransfer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: P2pTransferRequest) =>
      api<{ senderUser: User; message: string }>('POST', '/bank/p2pTransfer', body, {
        idempotencyKey: newIdempotencyKey(),
      }),
    onSuccess: async (res) => {
      useSession.getState().setUser(res.senderUser);
      await client.invalidateQueries({ queryKey: queryKeys.meAll });
      await client.invalidateQueries({ queryKey: queryKeys.transactionsAll });
    },
  });
}

/** POST /api/bank/distributeCurrency with an Idempotency-Key. */
export function useDistributeCurrency() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: DistributeCurrencyRequest) =>
      api<{ senderUser: User; message: string }>('POST', '/bank/distributeCurrency', body, {
        idempotencyKey: newIdempotencyKey(),
      }),
    onSuccess: async (res) => {
      useSession.getState().setUser(res.senderUser);
      await client.invalidateQueries({ queryKey: queryKeys.meAll });
      await client.invalidateQueries({ queryKey: queryKeys.transactionsAll });
    },
  });
}
