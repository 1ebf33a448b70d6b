/**
 * The exports module's root (DESIGN §11.6): the CSV exports' single-use download links at /api/exports
 * (each list's CSV route lives with its list, streaming through lib/csv-export.ts), and the pruning of
 * expired links. Owns `export_links`.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client.ts';
import { exportsRoutes } from './exports.routes.ts';
import { startExportLinkPruning } from './exports.service.ts';

/** Registers the download links at `/api/exports` and prunes the expired ones. */
export const exportsModule: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  await app.register(exportsRoutes, { prefix: '/api/exports', db });
  const pruning = startExportLinkPruning(db, app.log);
  app.addHook('onClose', async () => pruning.stop());
};
