/** Routes of /api/forge's recipes (SPEC §7 Forge, DESIGN §6): the list, and an admin's changes. */
import {
  createRecipeRequest,
  deleteRecipeRequest,
  errorResponse,
  modifyRecipeRequest,
  recipeResponse,
  recipesResponse,
  setRecipeActiveRequest,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../http/access.ts';
import { sendJson } from '../../lib/response-cache.ts';
import type { RecipeAnswers } from './recipes.cache.ts';
import * as recipes from './recipes.service.ts';

/** `recipeAnswers`: the module's kept recipe list, dropped by every recipe write. */
export const recipesRoutes: FastifyPluginAsyncZod<{ db: Db; recipeAnswers: RecipeAnswers }> = async (
  app,
  { db, recipeAnswers },
) => {
  const tags = ['forge'];
  const errors = { '4xx': errorResponse };
  const recipeWrite = <T>(write: Promise<T>) => write.finally(() => recipeAnswers.clear());

  app.get(
    '/recipes/fetch',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'fetchRecipes',
        summary: 'The active forge recipes, oldest first (an admin gets every recipe)',
        tags,
        response: { 200: recipesResponse, ...errors },
      },
    },
    (req, reply) => sendJson(reply, recipeAnswers.get(req.auth)),
  );

  app.post(
    '/recipes/create',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'createRecipe',
        summary: 'Create a forge recipe, active unless active is false (admin)',
        tags,
        body: createRecipeRequest,
        response: { 200: recipeResponse, ...errors },
      },
    },
    (req) => recipeWrite(recipes.createRecipe(db, requireAuth(req), req.body, req.ip)),
  );

  app.post(
    '/recipes/modify',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'modifyRecipe',
        summary: 'Change the given fields of a forge recipe; running processes keep theirs (admin)',
        tags,
        body: modifyRecipeRequest,
        response: { 200: recipeResponse, ...errors },
      },
    },
    (req) => recipeWrite(recipes.modifyRecipe(db, requireAuth(req), req.body, req.ip)),
  );

  app.post(
    '/recipes/delete',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'deleteRecipe',
        summary: 'Delete a forge recipe; running processes still finish or cancel (admin)',
        tags,
        body: deleteRecipeRequest,
        response: { 200: recipeResponse, ...errors },
      },
    },
    (req) => recipeWrite(recipes.deleteRecipe(db, requireAuth(req), req.body.objectId, req.ip)),
  );

  app.post(
    '/recipes/setactive',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'setRecipeActive',
        summary: 'Activate or deactivate a forge recipe (admin)',
        tags,
        body: setRecipeActiveRequest,
        response: { 200: recipeResponse, ...errors },
      },
    },
    (req) => recipeWrite(recipes.setRecipeActive(db, requireAuth(req), req.body, req.ip)),
  );
};
