/**
 * The one wrapper of money-moving requests (DESIGN §3, §5): the work runs in one transaction (under the
 * request's Idempotency-Key when it has one), collects what it changed in a `LiveChanges`, and only
 * once it committed are the changes handed to the live feed.
 */
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../db/client.ts';
import { inTransaction, type TransactionOptions } from '../db/transaction.ts';
import { requireAuth } from '../http/access.ts';
import type { GroupCommit } from '../lib/group-commit.ts';
import { type ChangePublisher, LiveChanges } from '../lib/live-changes.ts';
import { idempotencyKey, isCompletedRepeat, withIdempotency } from './idempotency.ts';

/** Runs `work` with a fresh change set, then queues what it changed on `publisher` (after it returned). */
export async function withLiveChanges<T>(
  publisher: ChangePublisher,
  work: (changes: LiveChanges) => Promise<T>,
): Promise<T> {
  const changes = new LiveChanges();
  const result = await work(changes);
  publisher.add(changes);
  return result;
}

/**
 * How a batch of group commit runs: its named statements with their generic plans (see
 * `TransactionOptions`), so that a batch of another size is not planned again.
 */
const BATCH: TransactionOptions = { genericPlans: true };

/**
 * Runs a group-commit batch's `work` in one transaction of `db`, with generic plans, then publishes what
 * it changed. `opts.first`: SQL text run in the BEGIN's round trip (see `TransactionOptions.first`);
 * `opts.commitBehindLast`: the work ends with the ledger's posting, and the COMMIT goes behind it;
 * `opts.onCommitSent`, `opts.onCommitRefused`: `BatchRun`'s `commit` hooks.
 */
export function inLiveTransaction<T>(
  db: Db,
  publisher: ChangePublisher,
  work: (tx: Tx, changes: LiveChanges) => Promise<T>,
  opts: Pick<TransactionOptions, 'first' | 'commitBehindLast' | 'onCommitSent' | 'onCommitRefused'> = {},
): Promise<T> {
  return withLiveChanges(publisher, (changes) => inTransaction(db, (tx) => work(tx, changes), { ...BATCH, ...opts }));
}

/** The Idempotency-Key scope of a signed-in caller's request: the caller, the key, the route and the body. */
function idempotencyScope(req: FastifyRequest) {
  return {
    userId: requireAuth(req).id,
    key: idempotencyKey(req),
    route: req.routeOptions.url ?? req.url,
    body: req.body,
  };
}

/**
 * Whether `req` repeats a money-moving request that already completed under its Idempotency-Key: its answer
 * is replayed, so checks that the first attempt passed (a step-up code, used once) are not asked again.
 */
export function isCompletedRepeatOf(db: Db, req: FastifyRequest): Promise<boolean> {
  return isCompletedRepeat(db, idempotencyScope(req));
}

/**
 * A money-moving request of a signed-in caller: `work` runs in one transaction under the request's
 * Idempotency-Key (a repeat replays the first answer, see `withIdempotency`), then what it changed goes
 * to the live feed of `req.server`. `opts`: how the transaction runs. Throws what `work` or
 * `withIdempotency` throws.
 */
export function moneyMoving<T>(
  db: Db,
  req: FastifyRequest,
  work: (tx: Tx, changes: LiveChanges) => Promise<T>,
  opts?: TransactionOptions,
): Promise<T> {
  const scope = idempotencyScope(req);
  return withLiveChanges(req.server.live.changes, (changes) =>
    withIdempotency(db, scope, (tx) => work(tx, changes), opts),
  );
}

/**
 * A money-moving request that goes by group commit (DESIGN §9): without an Idempotency-Key, `job` joins
 * the next batch of `lane` in `batches`; with one, `alone` runs as `moneyMoving` runs it, in the key's own
 * transaction (a repeat replays the first answer), a batch of one with the batches' generic plans. Resolves to the job's result; rejects with its error.
 */
export function moneyMovingBatched<J, R>(
  db: Db,
  req: FastifyRequest,
  batches: GroupCommit<J, R>,
  lane: string,
  job: J,
  alone: (tx: Tx, changes: LiveChanges) => Promise<R>,
): Promise<R> {
  return idempotencyKey(req) === undefined ? batches.submit(lane, job) : moneyMoving(db, req, alone, BATCH);
}
