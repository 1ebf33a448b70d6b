/** The shape every recipe mutation shares: on success the recipe lists and the admin logs refetch. */
import type { RecipeResponse } from '@starlight/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-keys.ts';

/** A mutation of `request` that refreshes what a recipe change shows (Forge Control, the member's Forge tab, Admin Logs). */
export function useRecipeMutation<B>(request: (body: B) => Promise<RecipeResponse>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: async () => {
      await Promise.all(
        [queryKeys.forge.recipesAll, queryKeys.adminLogs].map((queryKey) => client.invalidateQueries({ queryKey })),
      );
    },
  });
}
