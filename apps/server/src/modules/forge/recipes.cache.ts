/**
 * The recipe list every visitor and member reads: the same for everyone but an admin, so a
 * replica builds its answer once and serves it for up to `RESPONSE_TTL_MS` (1 s). This process's own recipe
 * writes drop it at once (`clear`), and so does a currency change anywhere (a recipe's amounts are written
 * at its currencies' precision); another replica's recipe write shows here within the TTL. An admin's list
 * (every live recipe, inactive ones too) is always read afresh.
 */
import { recipesResponse } from '@starlight/shared';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { AuthUser } from '../../http/access.ts';
import { clearOnCurrencyChange } from '../../lib/live-changes.ts';
import { type JsonBody, ResponseCache, serializeAnswer } from '../../lib/response-cache.ts';
import * as recipes from './recipes.service.ts';

/** The kept recipe list of one process. */
export interface RecipeAnswers {
  /** The `recipes/fetch` body (JSON) for `viewer` (null: a visitor). Throws what the read throws. */
  get(viewer: AuthUser | null): Promise<JsonBody>;
  /** Drops the kept list: call it once a recipe write committed. */
  clear(): void;
  /** Stops listening for changes. */
  stop(): void;
}

/** Starts `app`'s kept recipe list, read from `db`. */
export function startRecipeAnswers(app: FastifyInstance, db: Db): RecipeAnswers {
  const cache = new ResponseCache<JsonBody>();
  const stop = clearOnCurrencyChange(app.live, cache);
  const load = (viewer: AuthUser | null) => async () =>
    serializeAnswer(recipesResponse, await recipes.fetchRecipes(db, viewer));
  return {
    get: (viewer) => (viewer?.role === 'admin' ? load(viewer)() : cache.get('recipes', 'active', load(null))),
    clear: () => cache.clear(),
    stop,
  };
}
