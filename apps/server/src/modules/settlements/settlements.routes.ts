/** Routes of /api/bank for deposits and withdrawals (SPEC §7 Bank, DESIGN §8). Thin: schema, access, one call. */
import {
  depositRequest,
  depositResponse,
  errorResponse,
  getSettlementsRequest,
  getSettlementsResponse,
  settleRequest,
  settleResponse,
  withdrawRequest,
  withdrawResponse,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../http/access.ts';
import { moneyMoving, moneyMovingBatched } from '../../http/money-moving.ts';
import type { WithdrawBatches } from './settlements.batches.ts';
import * as settlements from './settlements.service.ts';

/**
 * `readDb` serves the admin's settlement list (lag-tolerant); `withdrawBatches`: the module's
 * group commit of withdrawals.
 */
export const settlementsRoutes: FastifyPluginAsyncZod<{
  db: Db;
  readDb: Db;
  withdrawBatches: WithdrawBatches;
}> = async (app, { db, readDb, withdrawBatches }) => {
  const tags = ['bank'];
  const errors = { '4xx': errorResponse };

  app.post(
    '/withdraw',
    {
      config: { access: 'member' },
      schema: {
        summary: 'Withdraw to a wallet: debited at once with the withdrawal tax, paid out by an admin',
        tags,
        body: withdrawRequest,
        response: { 200: withdrawResponse, ...errors },
      },
    },
    (req) => {
      const member = requireAuth(req);
      return moneyMovingBatched(db, req, withdrawBatches, 'withdraw', { member, input: req.body }, (tx, changes) =>
        settlements.withdraw(tx, member, req.body, changes),
      );
    },
  );

  app.post(
    '/deposit',
    {
      config: { access: 'member' },
      schema: {
        summary: 'Claim a deposit from a wallet; credited when an admin approves it',
        tags,
        body: depositRequest,
        response: { 200: depositResponse, ...errors },
      },
    },
    (req) => moneyMoving(db, req, (tx) => settlements.deposit(tx, requireAuth(req), req.body)),
  );

  app.post(
    '/getSettlements',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Deposits and withdrawals, pending first (admin)',
        tags,
        body: getSettlementsRequest,
        response: { 200: getSettlementsResponse, ...errors },
      },
    },
    (req) => settlements.getSettlements(readDb, req.body),
  );

  app.post(
    '/settle',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Approve or refuse a pending deposit or withdrawal, once (admin)',
        tags,
        body: settleRequest,
        response: { 200: settleResponse, ...errors },
      },
    },
    (req) => moneyMoving(db, req, (tx, changes) => settlements.settle(tx, requireAuth(req), req.body, req.ip, changes)),
  );
};
