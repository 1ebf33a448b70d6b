/** The synth chips module's root (DESIGN §7): its group commits, and its routes under /api/inventory. */
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client.ts';
import { startChipBatches } from './chips.batches.ts';
import { chipsRoutes } from './chips.routes.ts';

/** Registers the synth chips at `/api/inventory`. */
export const chipsModule: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  await app.register(chipsRoutes, { prefix: '/api/inventory', db, batches: startChipBatches(app, db) });
};
