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
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useIdempotentMutation } from '../../../lib/use-idempotency-key.ts';

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

type ChipAction = 'buySynthChips' | 'openSynthChips';

/** POST `kind` for `amount` chips (1 to 100) under `idempotencyKey`; refused with the server's message. */
export function chipAction(
  kind: ChipAction,
  amount: number,
  idempotencyKey: string,
): Promise<BuySynthChipsResponse | OpenSynthChipsResponse> {
  return api<BuySynthChipsResponse | OpenSynthChipsResponse>(
    'POST',
    `/inventory/${kind}`,
    { amount },
    { idempotencyKey },
  );
}

/** Buys or opens chips (variables: the amount, keyed per submission); sale, balances, history, items refresh. */
export function useChipAction(kind: ChipAction) {
  const client = useQueryClient();
  return useIdempotentMutation({
    send: (amount: number, idempotencyKey: string) => chipAction(kind, amount, idempotencyKey),
    onSuccess: () =>
      Promise.all(
        [queryKeys.chips.sale, queryKeys.meAll, queryKeys.transactionsAll, ['items']].map((queryKey) =>
          client.invalidateQueries({ queryKey }),
        ),
      ),
  });
}
