/**
 * The exchange module's root (SPEC §7 Exchange, DESIGN §5), the Quantum Hub under /api/cex: its live
 * pushes, the kept market reads (built once per change of their pair), the group commit of orders, and
 * its routes (pairs, orders, market reads).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client.ts';
import { startExchangeLive } from './exchange.live.ts';
import { startMarketAnswers } from './market.cache.ts';
import { marketRoutes } from './market.routes.ts';
import { startOrderBatches } from './orders.batches.ts';
import { ordersRoutes } from './orders.routes.ts';
import { pairsRoutes } from './pairs.routes.ts';

/** Registers the exchange at `/api/cex`; `readDb` serves trades and candles (lag-tolerant). */
export const exchangeModule: FastifyPluginAsync<{ db: Db; readDb: Db }> = async (app, { db, readDb }) => {
  const stopLive = startExchangeLive(app, db);
  const answers = startMarketAnswers(app, db, readDb);
  app.addHook('onClose', async () => {
    stopLive();
    answers.stop();
  });
  const batches = startOrderBatches(app, db);
  await app.register(pairsRoutes, { prefix: '/api/cex', db });
  await app.register(ordersRoutes, { prefix: '/api/cex', db, batches });
  await app.register(marketRoutes, { prefix: '/api/cex', answers, db });
};
