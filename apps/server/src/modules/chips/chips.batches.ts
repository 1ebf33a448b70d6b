/**
 * The synth chips' group commits (DESIGN §9): purchases without an Idempotency-Key are written in batches
 * (every one moves the sale's two balance rows, so those that arrive while a batch is written go in the
 * next one); openings the same way, in one lane (as transfers: bigger batches).
 */
import type { BuySynthChipsResponse, OpenSynthChipsResponse } from '@starlight/shared';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { inLiveTransaction } from '../../http/money-moving.ts';
import { GroupCommit } from '../../lib/group-commit.ts';
import * as chips from './chips.service.ts';

/** The chips' two batch lanes. */
export interface ChipBatches {
  buys: GroupCommit<chips.BuyJob, BuySynthChipsResponse>;
  opens: GroupCommit<chips.OpenJob, OpenSynthChipsResponse>;
}

/** Starts `app`'s chip batches on `db`. */
export function startChipBatches(app: FastifyInstance, db: Db): ChipBatches {
  const buys = new GroupCommit<chips.BuyJob, BuySynthChipsResponse>(
    (_lane, jobs, commit) =>
      inLiveTransaction(db, app.live.changes, (tx, changes) => chips.buySynthChipsBatch(tx, jobs, changes), {
        commitBehindLast: true,
        ...commit,
      }),
    32,
  );
  const opens = new GroupCommit<chips.OpenJob, OpenSynthChipsResponse>(
    (_lane, jobs, commit) =>
      inLiveTransaction(db, app.live.changes, (tx, changes) => chips.openSynthChipsBatch(tx, jobs, changes), {
        commitBehindLast: true,
        ...commit,
      }),
    32,
  );
  return { buys, opens };
}
