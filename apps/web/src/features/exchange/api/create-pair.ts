/** POST /api/cex/createPair (admin): `{pair, message}`; the name is composed by the server. */
import type { CreatePairRequest, PairResponse } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { useReloadPairs } from './get-pairs.ts';

/** Creates a pair; refused with the server's message (same currencies, existing pair). */
export function createPair(body: CreatePairRequest): Promise<PairResponse> {
  return api<PairResponse>('POST', '/cex/createPair', body);
}

/** The mutation; the pair list reloads on success. */
export function useCreatePair() {
  return useMutation({ mutationFn: createPair, onSuccess: useReloadPairs() });
}
