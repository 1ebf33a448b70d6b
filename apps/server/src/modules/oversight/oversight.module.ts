/**
 * The oversight module's root: the alert level (defcon), the admin's broadcast and the access and admin
 * logs under /api/audit, with the kept alert level every page reads, stopped when the app closes.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client.ts';
import { broadcastRoutes } from './broadcast.routes.ts';
import { startDefconAnswers } from './defcon.cache.ts';
import { defconRoutes } from './defcon.routes.ts';
import { logsRoutes } from './logs.routes.ts';

/** Registers the oversight routes at `/api/audit`; `readDb` serves the log lists. */
export const oversightModule: FastifyPluginAsync<{ db: Db; readDb: Db }> = async (app, { db, readDb }) => {
  // The alert level every page reads, kept per process; a change drops it everywhere.
  const defcon = startDefconAnswers(app, db);
  app.addHook('onClose', async () => defcon.stop());
  await app.register(defconRoutes, { prefix: '/api/audit', db, defcon });
  await app.register(broadcastRoutes, { prefix: '/api/audit', db });
  await app.register(logsRoutes, { prefix: '/api/audit', readDb });
};
