/** GET /api/cex/getPairs (public; an admin also sees hidden pairs). */
import type { PairsResponse } from '@starlight/shared';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.ts';

/** Fetches the pairs the caller may see. */
export function getPairs(): Promise<PairsResponse> {
  return api<PairsResponse>('GET', '/cex/getPairs');
}

/** Keyed by the session token too: an admin also sees hidden pairs. */
export const pairsQuery = (token: string | null) =>
  queryOptions({
    queryKey: [...queryKeys.exchange.pairs, token],
    queryFn: async () => (await getPairs()).pairs,
  });

/** The pairs the signed-in member (or a visitor) may see. */
export function usePairs() {
  const token = useSession((s) => s.token);
  return useQuery(pairsQuery(token));
}

/** Reloads the pair list (SPEC §8: the list reloads on 'Pair modified'); the pair mutations call it. */
export function useReloadPairs() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: queryKeys.exchange.pairs });
}
