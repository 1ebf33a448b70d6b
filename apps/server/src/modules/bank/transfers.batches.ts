/**
 * The bank's group commits (DESIGN §9): transfers, and admin mints and burns, that arrive without an
 * Idempotency-Key are written in batches, those that arrive while the previous batch is written going
 * together in one transaction.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { inLiveTransaction } from '../../http/money-moving.ts';
import { GroupCommit } from '../../lib/group-commit.ts';
import * as transfers from './transfers.service.ts';

/** The bank's two batch lanes. */
export interface TransferBatches {
  transfers: GroupCommit<transfers.TransferJob, transfers.TransferResult>;
  mints: GroupCommit<transfers.MintJob, { message: string }>;
}

/** Starts `app`'s transfer and mint batches on `db`. */
export function startTransferBatches(app: FastifyInstance, db: Db): TransferBatches {
  // Transfers without an Idempotency-Key are written in batches (group commit, DESIGN §9): those that
  // arrive while the previous batch is written go together in one transaction. One lane: two lanes (by
  // sender) wrote smaller batches, at more CPU per transfer (docs/decisions/0001-group-commit.md).
  const transferBatches: TransferBatches['transfers'] = new GroupCommit<
    transfers.TransferJob,
    transfers.TransferResult
  >(
    (_lane, jobs, commit) =>
      inLiveTransaction(db, app.live.changes, (tx, changes) => transfers.p2pTransfers(tx, jobs, changes), {
        commitBehindLast: true,
        ...commit,
      }),
    32,
  );
  // Admin mints and burns without an Idempotency-Key, the same way, in one lane.
  const mintBatches: TransferBatches['mints'] = new GroupCommit<transfers.MintJob, { message: string }>(
    (_lane, jobs, commit) =>
      inLiveTransaction(db, app.live.changes, (tx, changes) => transfers.mintOrBurnBatch(tx, jobs, changes), {
        commitBehindLast: true,
        ...commit,
      }),
    32,
  );
  return { transfers: transferBatches, mints: mintBatches };
}
