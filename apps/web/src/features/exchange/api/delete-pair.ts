/** POST /api/cex/deletePair (admin): open orders are cancelled and their escrow returned; `{message}`. */
import type { DeletePairResponse } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { useReloadPairs } from './get-pairs.ts';

/** Deletes `pairId`. */
export function deletePair(pairId: string): Promise<DeletePairResponse> {
  return api<DeletePairResponse>('POST', '/cex/deletePair', { pairId });
}

/** The mutation; the pair list reloads on success. */
export function useDeletePair() {
  return useMutation({ mutationFn: deletePair, onSuccess: useReloadPairs() });
}
