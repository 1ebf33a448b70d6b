/** Routes of /api/bank for deposits and withdrawals (SPEC §7 Bank, DESIGN §8). Thin: schema, access, one call. */
import {
  depositRequest,
  depositResponse,
  errorResponse,
  getSettlementsRequest,
  getSettlementsResponse,
  settlementsCsvQuery,
  settleRequest,
  settleResponse,
  withdrawRequest,
  withdrawResponse,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../http/access.ts';
import { isCompletedRepeatOf, moneyMoving, moneyMovingBatched } from '../../http/money-moving.ts';
import { csvFileName, sendCsv } from '../../lib/csv-export.ts';
import { csvExportLimit } from '../../plugins/rate-limit.ts';
import { type MfaDeps, requireStepUp } from '../mfa/mfa.public.ts';
import type { WithdrawBatches } from './settlements.batches.ts';
import * as settlements from './settlements.service.ts';
import { SETTLEMENT_COLUMNS, settlementPages } from './settlements-export.service.ts';

/**
 * `readDb` serves the admin's settlement list (lag-tolerant); `withdrawBatches`: the module's
 * group commit of withdrawals; `mfa`: the step-up a withdrawal needs when the account has a second
 * factor (DESIGN §11.1), checked before anything is written.
 */
export const settlementsRoutes: FastifyPluginAsyncZod<{
  db: Db;
  readDb: Db;
  withdrawBatches: WithdrawBatches;
  mfa: MfaDeps;
}> = async (app, { db, readDb, withdrawBatches, mfa }) => {
  const tags = ['bank'];
  const errors = { '4xx': errorResponse };

  app.post(
    '/withdraw',
    {
      config: { access: 'member', scope: 'withdraw' },
      schema: {
        summary: 'Withdraw to a wallet: debited at once with the withdrawal tax, paid out by an admin',
        tags,
        body: withdrawRequest,
        response: { 200: withdrawResponse, ...errors },
      },
    },
    async (req) => {
      const member = requireAuth(req);
      // A retry of a completed withdrawal replays its answer; its code was used by the first attempt.
      await requireStepUp(mfa, member, req.body.mfaCode, () => isCompletedRepeatOf(db, req));
      return moneyMovingBatched(db, req, withdrawBatches, 'withdraw', { member, input: req.body }, (tx, changes) =>
        settlements.withdraw(tx, member, req.body, changes),
      );
    },
  );

  app.post(
    '/deposit',
    {
      config: { access: 'member', scope: 'withdraw' },
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

  app.get(
    '/settlements.csv',
    {
      config: { access: 'admin', downloadLink: true, rateLimit: csvExportLimit() },
      schema: {
        summary: 'Every deposit and withdrawal matching the filters, as CSV, pending first (admin, DESIGN §11.6)',
        tags,
        querystring: settlementsCsvQuery,
        response: errors,
      },
    },
    (req, reply) => {
      sendCsv(req, reply, csvFileName('settlements'), SETTLEMENT_COLUMNS, settlementPages(readDb, req.query));
    },
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
