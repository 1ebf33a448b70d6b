/**
 * The bank module's root (SPEC §7 Bank): its currencies' live pushes and kept list, the group commits of
 * transfers, of mints and burns and of withdrawals, and its routes under /api/bank (currencies, money moves, settlements).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client.ts';
import { startCurrencyListAnswer } from './currencies.cache.ts';
import { startCurrenciesLive } from './currencies.live.ts';
import { currenciesRoutes } from './currencies.routes.ts';
import { startWithdrawBatches } from './settlements.batches.ts';
import { settlementsRoutes } from './settlements.routes.ts';
import { startTransferBatches } from './transfers.batches.ts';
import { transfersRoutes } from './transfers.routes.ts';

/** Registers the bank at `/api/bank`; `readDb` serves the admin's settlement list. */
export const bankModule: FastifyPluginAsync<{ db: Db; readDb: Db }> = async (app, { db, readDb }) => {
  const stopLive = startCurrenciesLive(app, db);
  app.addHook('onClose', async () => stopLive());
  // The public currency list, built once and shared by every viewer (currencies.cache.ts).
  const currencyList = startCurrencyListAnswer(app, db);
  app.addHook('onClose', async () => currencyList.stop());
  const batches = startTransferBatches(app, db);
  await app.register(currenciesRoutes, { prefix: '/api/bank', db, currencyList });
  await app.register(transfersRoutes, { prefix: '/api/bank', db, batches });
  const withdrawBatches = startWithdrawBatches(app, db);
  await app.register(settlementsRoutes, { prefix: '/api/bank', db, readDb, withdrawBatches });
};
