/**
 * The exchange module's root (SPEC §7 Exchange, DESIGN §5), the Quantum Hub under /api/cex: its live
 * pushes, the kept market reads (built once per change of their pair), the group commit of orders, the
 * expiry job of good-till-date orders, and its routes (pairs, orders, market reads, the member's portfolio).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client.ts';
import { startExchangeLive } from './exchange.live.ts';
import { startMarketAnswers } from './market.cache.ts';
import { marketRoutes } from './market.routes.ts';
import { startOrderBatches } from './orders.batches.ts';
import { startOrderExpiry } from './orders.expiry.ts';
import { ordersRoutes } from './orders.routes.ts';
import { pairsRoutes } from './pairs.routes.ts';
import { portfolioRoutes } from './portfolio.routes.ts';

/** Registers the exchange at `/api/cex`; `readDb` serves trades and candles (lag-tolerant). */
export const exchangeModule: FastifyPluginAsync<{ db: Db; readDb: Db }> = async (app, { db, readDb }) => {
  const stopLive = startExchangeLive(app, db);
  const answers = startMarketAnswers(app, db, readDb);
  const expiry = startOrderExpiry(app, db);
  app.addHook('onClose', async () => {
    stopLive();
    answers.stop();
    await expiry.stop();
  });
  const batches = startOrderBatches(app, db);
  await app.register(pairsRoutes, { prefix: '/api/cex', db });
  await app.register(ordersRoutes, { prefix: '/api/cex', db, batches });
  await app.register(marketRoutes, { prefix: '/api/cex', answers, db });
  await app.register(portfolioRoutes, { prefix: '/api/cex', db });
};
