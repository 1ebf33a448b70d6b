/**
 * The market module's root (DESIGN §11.5) under /api/market: members list their items for a price, buy
 * others' listings, and cancel their own; everyone browses the open listings (from `readDb`).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client.ts';
import { marketRoutes } from './market.routes.ts';

/** Registers the marketplace at `/api/market`. */
export const marketModule: FastifyPluginAsync<{ db: Db; readDb: Db }> = async (app, { db, readDb }) => {
  await app.register(marketRoutes, { prefix: '/api/market', db, readDb });
};
