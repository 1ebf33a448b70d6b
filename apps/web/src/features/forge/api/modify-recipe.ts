/** POST /api/forge/recipes/modify (admin; DESIGN §6): only the changed fields; `{recipe, message}`. */
import type { ModifyRecipeRequest, RecipeResponse } from '@starlight/shared';
import { api } from '../../../lib/api.ts';
import { useRecipeMutation } from './recipe-mutation.ts';

export function modifyRecipe(body: ModifyRecipeRequest): Promise<RecipeResponse> {
  return api<RecipeResponse>('POST', '/forge/recipes/modify', body);
}

export function useModifyRecipe() {
  return useRecipeMutation(modifyRecipe);
}
