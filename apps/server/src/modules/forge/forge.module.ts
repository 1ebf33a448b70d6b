/**
 * The forge module's root (SPEC §7 Forge, DESIGN §6) under /api/forge: the kept recipe list visitors and
 * members read, members' own process totals, the group commits of starts and ends, and its
 * routes (recipes, processes).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client.ts';
import { startMemberTotals } from '../../lib/kept-totals.ts';
import { startProcessBatches } from './processes.batches.ts';
import { processesRoutes } from './processes.routes.ts';
import { startRecipeAnswers } from './recipes.cache.ts';
import { recipesRoutes } from './recipes.routes.ts';

/** Registers the forge at `/api/forge`; `readDb` serves the admin's list of every process. */
export const forgeModule: FastifyPluginAsync<{ db: Db; readDb: Db }> = async (app, { db, readDb }) => {
  const batches = startProcessBatches(app, db);
  const recipeAnswers = startRecipeAnswers(app, db);
  app.addHook('onClose', async () => recipeAnswers.stop());
  // Members' own process totals, kept until their next change (lib/kept-totals.ts).
  const ownTotals = startMemberTotals(app);
  app.addHook('onClose', async () => ownTotals.stop());
  await app.register(recipesRoutes, { prefix: '/api/forge', db, recipeAnswers });
  await app.register(processesRoutes, { prefix: '/api/forge', db, readDb, batches, ownTotals });
};
