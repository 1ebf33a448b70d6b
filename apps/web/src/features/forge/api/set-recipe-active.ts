/** POST /api/forge/recipes/setactive (admin; DESIGN §6): `{objectId, flag}` -> `{recipe, message}`. */
import type { RecipeResponse, SetRecipeActiveRequest } from '@starlight/shared';
import { api } from '../../../lib/api.ts';
import { useRecipeMutation } from './recipe-mutation.ts';

export function setRecipeActive(body: SetRecipeActiveRequest): Promise<RecipeResponse> {
  return api<RecipeResponse>('POST', '/forge/recipes/setactive', body);
}

export function useSetRecipeActive() {
  return useRecipeMutation(setRecipeActive);
}
