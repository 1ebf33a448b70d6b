/** POST /api/forge/recipes/delete (admin; DESIGN §6): running processes still finish. `{recipe, message}`. */
import type { DeleteRecipeRequest, RecipeResponse } from '@starlight/shared';
import { api } from '../../../lib/api.ts';
import { useRecipeMutation } from './recipe-mutation.ts';

export function deleteRecipe(body: DeleteRecipeRequest): Promise<RecipeResponse> {
  return api<RecipeResponse>('POST', '/forge/recipes/delete', body);
}

export function useDeleteRecipe() {
  return useRecipeMutation(deleteRecipe);
}
