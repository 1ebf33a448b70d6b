/** Routes of /api/bank for deposits and withdrawals (SPEC §7 Bank, DESIGN §8). Thin: schema, access, one call. */
import {
  depositRequest,
  depositResponse,
  errorResponse,
  getSettlementsRequest,
  getSettlementsResponse,
  settleRequest,
  settleResponse,
  type WithdrawResponse,
  withdrawRequest,
  withdrawResponse,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../http/access.ts';
import { inLiveTransaction, moneyMoving, moneyMovingBatched } from '../../http/money-moving.ts';
import { GroupCommit } from '../../lib/group-commit.ts';
import * as settlements from './settlements.service.ts';

/** `readDb` serves the admin's settlement list (lag-tolerant, issue 21 §2). */
export const settlementsRoutes: FastifyPluginAsyncZod<{ db: Db; readDb: Db }> = async (app, { db, readDb }) => {
  const tags = ['bank'];
  const errors = { '4xx': errorResponse };
  // Withdrawals without an Idempotency-Key are written in batches (group commit, DESIGN §9): a taxed
  // currency's every withdrawal credits its collector's one balance row, so those that arrive while a
  // batch is written go together in the next one.
  const withdrawBatches = new GroupCommit<settlements.WithdrawJob, WithdrawResponse>(
    (_lane, jobs, commit) =>
      inLiveTransaction(db, app.live.changes, (tx, changes) => settlements.withdrawBatch(tx, jobs, changes), {
        commitBehindLast: true,
        ...commit,
      }),
    32,
  );

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
