/**
 * The settlements module's root (SPEC §7 Bank, DESIGN §8): deposits and withdrawals to and from wallets,
 * the group commit of withdrawals, and its routes under /api/bank.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client.ts';
import { startWithdrawBatches } from './settlements.batches.ts';
import { settlementsRoutes } from './settlements.routes.ts';

/** Registers the settlements at `/api/bank`; `readDb` serves the admin's settlement list. */
export const settlementsModule: FastifyPluginAsync<{ db: Db; readDb: Db }> = async (app, { db, readDb }) => {
  const withdrawBatches = startWithdrawBatches(app, db);
  await app.register(settlementsRoutes, { prefix: '/api/bank', db, readDb, withdrawBatches });
};
