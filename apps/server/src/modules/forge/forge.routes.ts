/** Routes of /api/forge (SPEC §7 Forge, DESIGN §6). Thin: schema, access, one service call. */
import {
  createRecipeRequest,
  deleteRecipeRequest,
  endProcessRequest,
  errorResponse,
  forgeProcessesResponse,
  getForgeProcessesAllRequest,
  getForgeProcessesRequest,
  modifyRecipeRequest,
  type ProcessResponse,
  processResponse,
  recipeResponse,
  recipesResponse,
  setRecipeActiveRequest,
  startProcessRequest,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../http/access.ts';
import { inLiveTransaction, moneyMovingBatched } from '../../http/money-moving.ts';
import { GroupCommit } from '../../lib/group-commit.ts';
import { startMemberTotals } from '../../lib/kept-totals.ts';
import { sendJson } from '../../lib/response-cache.ts';
import * as processes from './processes.service.ts';
import { startRecipeAnswers } from './recipes.cache.ts';
import * as recipes from './recipes.service.ts';

/** `readDb` serves the admin's list of every forge process (lag-tolerant, issue 21 §2). */
export const forgeRoutes: FastifyPluginAsyncZod<{ db: Db; readDb: Db }> = async (app, { db, readDb }) => {
  const tags = ['forge'];
  // Starts without an Idempotency-Key are written in batches (group commit, DESIGN §9), in one lane (as
  // transfers: bigger batches).
  const startBatches = new GroupCommit<processes.StartJob, ProcessResponse>(
    (_lane, jobs, commit) =>
      inLiveTransaction(db, app.live.changes, (tx, changes) => processes.startProcesses(tx, jobs, changes), {
        commitBehindLast: true,
        ...commit,
      }),
    32,
  );
  // Claims and cancels the same way, in a lane of their own.
  const endBatches = new GroupCommit<processes.EndJob, ProcessResponse>(
    (_lane, jobs, commit) =>
      inLiveTransaction(db, app.live.changes, (tx, changes) => processes.endProcesses(tx, jobs, changes), {
        commitBehindLast: true,
        ...commit,
      }),
    32,
  );
  const errors = { '4xx': errorResponse };
  // The recipe list visitors and members read, kept per process (issue 19 §2); a recipe write drops it.
  const recipeAnswers = startRecipeAnswers(app, db);
  app.addHook('onClose', async () => recipeAnswers.stop());
  // Members' own process totals, kept until their next change (lib/kept-totals.ts).
  const ownTotals = startMemberTotals(app);
  app.addHook('onClose', async () => ownTotals.stop());
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

  app.post(
    '/startProcess',
    {
      config: { access: 'member' },
      schema: {
        summary: "Start forging: the recipe's input times quantity is taken now",
        tags,
        body: startProcessRequest,
        response: { 200: processResponse, ...errors },
      },
    },
    (req) => {
      const member = requireAuth(req);
      return moneyMovingBatched(db, req, startBatches, 'start', { member, input: req.body }, (tx, changes) =>
        processes.startProcess(tx, member, req.body, changes),
      );
    },
  );

  app.post(
    '/endProcess',
    {
      config: { access: 'member' },
      schema: {
        summary: 'Claim a finished process, or cancel one in its first 10 minutes (input paid back)',
        tags,
        body: endProcessRequest,
        response: { 200: processResponse, ...errors },
      },
    },
    (req) => {
      const member = requireAuth(req);
      return moneyMovingBatched(db, req, endBatches, 'end', { member, input: req.body }, (tx, changes) =>
        processes.endProcess(tx, member, req.body, changes),
      );
    },
  );

  app.post(
    '/getForgeProcesses',
    {
      config: { access: 'member' },
      schema: {
        summary: "The caller's forge processes, newest first",
        tags,
        body: getForgeProcessesRequest,
        response: { 200: forgeProcessesResponse, ...errors },
      },
    },
    (req) => processes.getForgeProcesses(db, requireAuth(req), req.body, ownTotals),
  );

  app.post(
    '/getForgeProcessesAll',
    {
      config: { access: 'admin' },
      schema: {
        summary: "Every member's forge processes with filters, newest first (admin)",
        tags,
        body: getForgeProcessesAllRequest,
        response: { 200: forgeProcessesResponse, ...errors },
      },
    },
    (req) => processes.getForgeProcessesAll(readDb, req.body),
  );
};
