/**
 * Synth chips (DESIGN §7): GET /api/inventory/synthChips (remaining, price), POST buySynthChips and
 * POST openSynthChips (member, with an Idempotency-Key), and GET dropTable.
 */
import type {
  BuySynthChipsResponse,
  DropTableResponse,
  OpenSynthChipsResponse,
  SynthChipsResponse,
} from '@starlight/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, newIdempotencyKey } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const synthChipsQuery = queryOptions({
  queryKey: queryKeys.chips.sale,
  queryFn: ({ signal }) => api<SynthChipsResponse>('GET', '/inventory/synthChips', undefined, { signal }),
});

export const dropTableQuery = queryOptions({
  queryKey: queryKeys.chips.dropTable,
  queryFn: ({ signal }) => api<DropTableResponse>('GET', '/inventory/dropTable', undefined, { signal }),
  staleTime: Number.POSITIVE_INFINITY,
});

export const useSynthChips = () => useQuery(synthChipsQuery);
export const useDropTable = () => useQuery(dropTableQuery);

/** Buys or opens chips; the sale, balances, history and items refresh after it. */
export function useChipAction(kind: 'buySynthChips' | 'openSynthChips') {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (amount: number) =>
      api<BuySynthChipsResponse | OpenSynthChipsResponse>(
        'POST',
        `/inventory/${kind}`,
        { amount },
        {
          idempotencyKey: newIdempotencyKey(),
        },
      ),
    onSuccess: () =>
      Promise.all(
        [queryKeys.chips.sale, queryKeys.meAll, queryKeys.transactionsAll, ['items']].map((queryKey) =>
          client.invalidateQueries({ queryKey }),
        ),
      ),
  });
}
