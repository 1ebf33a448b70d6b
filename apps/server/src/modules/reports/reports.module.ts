/**
 * The reports module's root: the read models of the ledger. It keeps the ledger rollup (every 2 s) behind
 * currency stats, supply history and the audit, the conservation check (every 30 s, one replica at a
 * time), the shared supply history answers and members' own history totals, and registers the transaction
 * lists, the stats and the audit under /api/bank.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client.ts';
import { startMemberTotals } from '../../lib/kept-totals.ts';
import { startConservationCheck } from './conservation.check.ts';
import { conservationRoutes } from './conservation.routes.ts';
import { reportsRoutes } from './reports.routes.ts';
import { startLedgerRollup } from './rollup.queries.ts';
import { startSupplyAnswers } from './supply.cache.ts';

/** Registers the reports at `/api/bank`; `readDb` serves the lag-tolerant reads. */
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
  await app.register(reportsRoutes, { prefix: '/api/bank', db, readDb, historyTotals, supplyAnswers });
  await app.register(conservationRoutes, { prefix: '/api/bank', db });
};
