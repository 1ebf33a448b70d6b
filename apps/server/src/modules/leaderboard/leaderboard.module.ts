/**
 * The leaderboard module's root (DESIGN §6): the job that keeps the ranking in `store` (run
 * at once, which builds the ranking when it is missing, then every second), the kept currency list and
 * tops the route reads, and its route under /api/user.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { PeriodicJob } from '../../lib/periodic.ts';
import { startKeptCurrencies } from '../bank/bank.public.ts';
import { leaderboardRoutes } from './leaderboard.routes.ts';
import { topCache } from './leaderboard.service.ts';
import type { LeaderboardStore } from './leaderboard.store.ts';
import { startLeaderboardJob } from './leaderboard.sync.ts';

/** Registers the leaderboard at `/api/user` on `store`; `started` receives the job (tests run it at will). */
export const leaderboardModule: FastifyPluginAsync<{
  db: Db;
  readDb: Db;
  store: LeaderboardStore;
  started?: (job: PeriodicJob) => void;
}> = async (app, { db, readDb, store, started }) => {
  const currencies = startKeptCurrencies(app, db);
  app.addHook('onClose', async () => currencies.stop());
  await app.register(leaderboardRoutes, { prefix: '/api/user', db, readDb, store, currencies, cache: topCache() });
  const job = startLeaderboardJob({ db, store, log: app.log });
  // At once rather than after the first interval: builds the ranking when it is missing.
  void job.runNow();
  app.addHook('onClose', async () => job.stop());
  started?.(job);
};
