/**
 * Trading pairs (SPEC §7 Exchange): GET getPairs (public; an admin also sees hidden pairs), and the
 * admin's createPair, modifyPair and deletePair.
 */
import type {
  CreatePairRequest,
  DeletePairResponse,
  ModifyPairRequest,
  PairResponse,
  PairsResponse,
} from '@starlight/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.ts';

export function getPairs(): Promise<PairsResponse> {
  return api<PairsResponse>('GET', '/cex/getPairs');
}

/** Keyed by the session token too: an admin also sees hidden pairs. */
export const pairsQuery = (token: string | null) =>
  queryOptions({
    queryKey: [...queryKeys.exchange.pairs, token],
    queryFn: async () => (await getPairs()).pairs,
  });

export function usePairs() {
  const token = useSession((s) => s.token);
  return useQuery(pairsQuery(token));
}

export function createPair(body: CreatePairRequest): Promise<PairResponse> {
  return api<PairResponse>('POST', '/cex/createPair', body);
}

export function modifyPair(body: ModifyPairRequest): Promise<PairResponse> {
  return api<PairResponse>('POST', '/cex/modifyPair', body);
}

export function deletePair(pairId: string): Promise<DeletePairResponse> {
  return api<DeletePairResponse>('POST', '/cex/deletePair', { pairId });
}

/** The pair mutations; each reloads the pair list (SPEC §8: the list reloads on 'Pair modified'). */
export function usePairMutations() {
  const client = useQueryClient();
  const reload = () => client.invalidateQueries({ queryKey: queryKeys.exchange.pairs });
  return {
    create: useMutation({ mutationFn: createPair, onSuccess: reload }),
    modify: useMutation({ mutationFn: modifyPair, onSuccess: reload }),
    remove: useMutation({ mutationFn: deletePair, onSuccess: reload }),
  };
}
