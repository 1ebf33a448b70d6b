/**
 * The forge's group commits (DESIGN §9): starts without an Idempotency-Key are written in batches, in one
 * lane (as transfers: bigger batches); claims and cancels the same way, in a lane of their own.
 */
import type { ProcessResponse } from '@starlight/shared';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { inLiveTransaction } from '../../http/money-moving.ts';
import { GroupCommit } from '../../lib/group-commit.ts';
import * as processes from './processes.service.ts';

/** The forge's two batch lanes. */
export interface ProcessBatches {
  starts: GroupCommit<processes.StartJob, ProcessResponse>;
  ends: GroupCommit<processes.EndJob, ProcessResponse>;
}

/** Starts `app`'s process batches on `db`. */
export function startProcessBatches(app: FastifyInstance, db: Db): ProcessBatches {
  const starts = new GroupCommit<processes.StartJob, ProcessResponse>(
    (_lane, jobs, commit) =>
      inLiveTransaction(db, app.live.changes, (tx, changes) => processes.startProcesses(tx, jobs, changes), {
        commitBehindLast: true,
        ...commit,
      }),
    32,
  );
  const ends = new GroupCommit<processes.EndJob, ProcessResponse>(
    (_lane, jobs, commit) =>
      inLiveTransaction(db, app.live.changes, (tx, changes) => processes.endProcesses(tx, jobs, changes), {
        commitBehindLast: true,
        ...commit,
      }),
    32,
  );
  return { starts, ends };
}
