/** POST /api/user/leaderboard (public; the token goes along when signed in): the top holders and the caller's rank. */
import type { LeaderboardResponse } from '@starlight/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.ts';

/** Fetches the leaderboard of `currencyId`. */
export function getLeaderboard(currencyId: number, signal?: AbortSignal): Promise<LeaderboardResponse> {
  return api<LeaderboardResponse>('POST', '/user/leaderboard', { currencyId }, signal ? { signal } : {});
}

/** The leaderboard of `currencyId` as the session `token` sees it (its own rank; private members by name only to themselves). */
export const leaderboardQuery = (currencyId: number, token: string | null) =>
  queryOptions({
    queryKey: queryKeys.leaderboard(currencyId, token),
    queryFn: ({ signal }) => getLeaderboard(currencyId, signal),
  });

export function useLeaderboard(currencyId: number) {
  return useQuery(
    leaderboardQuery(
      currencyId,
      useSession((s) => s.token),
    ),
  );
}
