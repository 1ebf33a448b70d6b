/**
 * The settlements' group commit (DESIGN §9): withdrawals without an Idempotency-Key are written in
 * batches: a taxed currency's every withdrawal credits its collector's one balance row, so those that
 * arrive while a batch is written go together in the next one.
 */
import type { WithdrawResponse } from '@starlight/shared';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { inLiveTransaction } from '../../http/money-moving.ts';
import { GroupCommit } from '../../lib/group-commit.ts';
import * as settlements from './settlements.service.ts';

/** The withdrawals' one batch lane. */
export type WithdrawBatches = GroupCommit<settlements.WithdrawJob, WithdrawResponse>;

/** Starts `app`'s withdrawal batches on `db`. */
export function startWithdrawBatches(app: FastifyInstance, db: Db): WithdrawBatches {
  return new GroupCommit<settlements.WithdrawJob, WithdrawResponse>(
    (_lane, jobs, commit) =>
      inLiveTransaction(db, app.live.changes, (tx, changes) => settlements.withdrawBatch(tx, jobs, changes), {
        commitBehindLast: true,
        ...commit,
      }),
    32,
  );
}
