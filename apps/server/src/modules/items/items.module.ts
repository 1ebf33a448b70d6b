/**
 * The items module's root (SPEC §7, DESIGN §7) under /api/inventory: the kept collection list visitors
 * read, collections' and members' kept item totals, and its routes (collections, items).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client.ts';
import { startMemberTotals } from '../../lib/kept-totals.ts';
import { startCollectionAnswers } from './collections.cache.ts';
import { collectionsRoutes } from './collections.routes.ts';
import { itemsRoutes } from './items.routes.ts';
import { startCollectionTotals } from './items.totals.ts';

/** Registers the items at `/api/inventory`. */
export const itemsModule: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  // Collections' item totals, kept until their items change (items.totals.ts).
  const totals = startCollectionTotals(app);
  app.addHook('onClose', async () => totals.stop());
  // Members' own item totals, kept until their next change (lib/kept-totals.ts).
  const ownTotals = startMemberTotals(app);
  app.addHook('onClose', async () => ownTotals.stop());
  // The collection list visitors read, kept per process; a new collection drops it.
  const collections = startCollectionAnswers(db);
  await app.register(collectionsRoutes, { prefix: '/api/inventory', db, collections });
  await app.register(itemsRoutes, { prefix: '/api/inventory', db, totals, ownTotals });
};
