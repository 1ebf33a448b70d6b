/** POST /api/cex/modifyPair (admin): the changed flags, fee and notes of a pair; `{pair, message}`. */
import type { ModifyPairRequest, PairResponse } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { useReloadPairs } from './get-pairs.ts';

/** Modifies a pair (its currencies never change). */
export function modifyPair(body: ModifyPairRequest): Promise<PairResponse> {
  return api<PairResponse>('POST', '/cex/modifyPair', body);
}

/** The mutation; the pair list reloads on success. */
export function useModifyPair() {
  return useMutation({ mutationFn: modifyPair, onSuccess: useReloadPairs() });
}
