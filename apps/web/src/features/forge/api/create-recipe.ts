/** POST /api/forge/recipes/create (admin; DESIGN §6): `{recipe, message: 'Recipe created'}`. */
import type { CreateRecipeRequest, RecipeResponse } from '@starlight/shared';
import { api } from '../../../lib/api.ts';
import { useRecipeMutation } from './recipe-mutation.ts';

export function createRecipe(body: CreateRecipeRequest): Promise<RecipeResponse> {
  return api<RecipeResponse>('POST', '/forge/recipes/create', body);
}

export function useCreateRecipe() {
  return useRecipeMutation(createRecipe);
}
