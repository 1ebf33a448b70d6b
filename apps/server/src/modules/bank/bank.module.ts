/**
 * The bank module's root (SPEC §7 Bank): its currencies' live pushes and kept list, the group commits of
 * transfers and of mints and burns, and its routes under /api/bank (currencies, money moves).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client.ts';
import { startCurrencyListAnswer } from './currencies.cache.ts';
import { startCurrenciesLive } from './currencies.live.ts';
import { currenciesRoutes } from './currencies.routes.ts';
import { startTransferBatches } from './transfers.batches.ts';
import { transfersRoutes } from './transfers.routes.ts';

/** Registers the bank at `/api/bank`. */
export const bankModule: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  const stopLive = startCurrenciesLive(app, db);
  app.addHook('onClose', async () => stopLive());
  // The public currency list, built once and shared by every viewer (currencies.cache.ts).
  const currencyList = startCurrencyListAnswer(app, db);
  app.addHook('onClose', async () => currencyList.stop());
  const batches = startTransferBatches(app, db);
  await app.register(currenciesRoutes, { prefix: '/api/bank', db, currencyList });
  await app.register(transfersRoutes, { prefix: '/api/bank', db, batches });
};
