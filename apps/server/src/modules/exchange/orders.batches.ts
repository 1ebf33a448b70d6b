/**
 * The exchange's group commit (DESIGN §9): orders without an Idempotency-Key are placed in batches, the
 * orders that arrive while the previous batch is written going together in one transaction, whatever
 * their pairs. One lane: per-pair lanes wrote small batches that waited on each other's balance rows (a
 * trader's currency is on several pairs), at more CPU per order than one lane.
 */
import type { PlaceOrderResponse } from '@starlight/shared';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { inLiveTransaction } from '../../http/money-moving.ts';
import { GroupCommit } from '../../lib/group-commit.ts';
import * as orders from './orders.service.ts';

/** The exchange's one batch lane of orders. */
export type OrderBatches = GroupCommit<orders.OrderJob, PlaceOrderResponse>;

/** Starts `app`'s order batches on `db`, each placed under its pairs' locks. */
export function startOrderBatches(app: FastifyInstance, db: Db): OrderBatches {
  return new GroupCommit<orders.OrderJob, PlaceOrderResponse>(
    (_lane, jobs, commit) =>
      inLiveTransaction(
        db,
        app.live.changes,
        (tx, changes) => orders.placeOrders(tx, jobs, changes, { pairsLocked: true }),
        { first: orders.pairLocksOf(jobs), commitBehindLast: true, ...commit },
      ),
    32,
  );
}
