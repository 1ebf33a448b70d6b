/**
 * The reports module's root: the read models of the ledger and of the accounts. It keeps the ledger rollup
 * (every 2 s) behind currency stats, supply history and the audit, the conservation check (every 30 s, one
 * replica at a time), the shared supply history answers and members' own history totals, and registers the
 * transaction lists, the stats and the audit under /api/bank. It checks the kept user stats once the app is
 * ready and serves them at /api/user/getUserStats (admin).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client.ts';
import { startMemberTotals } from '../../lib/kept-totals.ts';
import { startConservationCheck } from './conservation.check.ts';
import { conservationRoutes } from './conservation.routes.ts';
import { reportsRoutes } from './reports.routes.ts';
import { startLedgerRollup } from './rollup.queries.ts';
import { startSupplyAnswers } from './supply.cache.ts';
import { userStatsRoutes } from './user-stats.routes.ts';
import { prepareUserStats } from './user-stats.service.ts';

/** Registers the reports at `/api/bank` and the user stats at `/api/user`; `readDb` serves the lag-tolerant reads. */
export const reportsModule: FastifyPluginAsync<{ db: Db; readDb: Db }> = async (app, { db, readDb }) => {
  // Supply history answers, built once and shared by every viewer for up to a second (supply.cache.ts).
  const supplyAnswers = startSupplyAnswers(app, readDb);
  app.addHook('onClose', async () => supplyAnswers.stop());
  // Members' own history totals, kept until their next change (lib/kept-totals.ts).
  const historyTotals = startMemberTotals(app);
  app.addHook('onClose', async () => historyTotals.stop());
  // The ledger rollup behind currency stats, supply history and the audit: kept every 2 s.
  const rollup = startLedgerRollup(db, app.log);
  app.addHook('onClose', async () => rollup.stop());
  // The conservation check (the pass over the balances), taken every 30 s by one replica.
  const conservationCheck = startConservationCheck(db, app.log);
  app.addHook('onClose', async () => conservationCheck.stop());
  // The kept user stats build themselves when their state is missing. The check reads every user and
  // positive balance (long at a million members), so it runs beside the first requests rather than before
  // them: the server is ready at once, and getUserStats is right once a rebuild, if any, ends.
  let checking: Promise<void> = Promise.resolve();
  app.addHook('onReady', async () => {
    checking = prepareUserStats(db, app.log).catch((err) =>
      app.log.error({ err }, 'could not check the kept user stats'),
    );
  });
  app.addHook('onClose', async () => checking);
  await app.register(reportsRoutes, { prefix: '/api/bank', db, readDb, historyTotals, supplyAnswers });
  await app.register(conservationRoutes, { prefix: '/api/bank', db });
  await app.register(userStatsRoutes, { prefix: '/api/user', readDb });
};
