/**
 * GET /api/forge/recipes/fetch (public; DESIGN §6): the active recipes oldest first, every live one for
 * an admin. Shared by the member's Forge tab and the admin's Forge Control.
 */
import type { RecipesResponse } from '@starlight/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.ts';

/** Fetches the recipes the caller may see. */
export function fetchRecipes(signal?: AbortSignal): Promise<RecipesResponse> {
  return api<RecipesResponse>('GET', '/forge/recipes/fetch', undefined, signal ? { signal } : {});
}

/** The recipes `token`'s session may see (keyed by it: an admin sees more than a member). */
export const recipesQuery = (token: string | null) =>
  queryOptions({
    queryKey: queryKeys.forge.recipes(token),
    queryFn: ({ signal }) => fetchRecipes(signal),
    select: (res) => res.recipes,
  });

/** The recipes as a query (data: Recipe[]). */
export function useRecipes() {
  return useQuery(recipesQuery(useSession((s) => s.token)));
}
