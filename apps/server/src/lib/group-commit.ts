/**
 * Group commit (DESIGN §9): a job submitted while an earlier batch of the same lane is being written
 * waits for it, then goes with every other job that arrived meanwhile, in arrival order, as one batch.
 * A batch pays the round trips and the commit of one job, so a busy lane writes many jobs per round
 * trip; an idle lane runs a job at once, and a busy one lets the event loop take a turn between batches.
 * Each job keeps its own outcome: `run` answers one per job, and should it throw for a whole batch, the
 * jobs run again one by one so only a faulty one fails.
 *
 * A batch that fails once its COMMIT has left (`run` calls `commit.onCommitSent` then: a connection lost
 * while the database committed) may have been written: its jobs then fail with its error rather than run
 * again, which could write them twice; unless the database answered that COMMIT with ROLLBACK
 * (`commit.onCommitRefused`: a statement before it had failed, nothing was written).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** The outcome of one job of a batch: its result, or the error it is refused with. */
export type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

/**
 * The result of a batch of one (a job run on its own, e.g. under an Idempotency-Key): its value, or
 * throws its error. Throws Error when the batch answered no outcome.
 */
export async function onlyOutcome<R>(outcomes: Promise<Outcome<R>[]>): Promise<R> {
  const [outcome] = await outcomes;
  if (!outcome) throw new Error('a batch of one answered no outcome');
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

interface Waiting<J, R> {
  job: J;
  resolve(value: R): void;
  reject(error: unknown): void;
}

/** What a batch's transaction reports of its COMMIT (`TransactionOptions` takes them as they are). */
export interface CommitHooks {
  /** The COMMIT left for the database. */
  onCommitSent(): void;
  /** The database answered it with ROLLBACK: nothing of the batch was written. */
  onCommitRefused(): void;
}

/**
 * Writes a batch in one transaction and answers one outcome per job, in order; throws only when the batch
 * as a whole failed. Calls `commit`'s hooks as its COMMIT leaves and, should it, when it is refused.
 */
export type BatchRun<J, R> = (lane: string, batch: readonly J[], commit: CommitHooks) => Promise<Outcome<R>[]>;

export class GroupCommit<J, R> {
  private readonly run: BatchRun<J, R>;
  private readonly maxBatch: number;
  /** Per lane with a batch under way, the jobs waiting for the next one. */
  private readonly waiting = new Map<string, Waiting<J, R>[]>();

  /** `run(lane, batch, commit)` writes a batch (`BatchRun`). At most `maxBatch` jobs go in one batch. */
  constructor(run: BatchRun<J, R>, maxBatch: number) {
    this.run = run;
    this.maxBatch = maxBatch;
  }

  /** Runs `job` with the next batch of `lane`. Resolves to its result; rejects with its error. */
  submit(lane: string, job: J): Promise<R> {
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(lane);
      const entry = { job, resolve, reject };
      if (queue) {
        queue.push(entry);
        return;
      }
      this.waiting.set(lane, [entry]);
      void this.drain(lane);
    });
  }

  private async drain(lane: string): Promise<void> {
    const queue = this.waiting.get(lane) ?? [];
    while (queue.length > 0) {
      await this.runBatch(lane, queue.splice(0, this.maxBatch));
      // Before the next batch, let the event loop read what is already waiting on its sockets: requests
      // that arrived with the last batch's answer join the next batch.
      if (queue.length > 0) await nextTurn();
    }
    this.waiting.delete(lane);
  }

  private async runBatch(lane: string, batch: Waiting<J, R>[]): Promise<void> {
    let outcomes: Outcome<R>[];
    let commitSent = false;
    try {
      outcomes = await this.run(
        lane,
        batch.map((w) => w.job),
        {
          onCommitSent: () => {
            commitSent = true;
          },
          onCommitRefused: () => {
            commitSent = false;
          },
        },
      );
    } catch (err) {
      // A batch that failed once its COMMIT was sent (a connection lost) may have been written: running
      // its jobs again could write them twice, so each fails with the batch's error.
      if (batch.length === 1 || commitSent) {
        for (const w of batch) w.reject(err);
        return;
      }
      // No single job's fault is known: run each on its own, so only a faulty one fails.
      for (const one of batch) await this.runBatch(lane, [one]);
      return;
    }
    for (const [i, w] of batch.entries()) {
      const outcome = outcomes[i];
      if (!outcome) w.reject(new Error('a batch answered no outcome for this job'));
      else if (outcome.ok) w.resolve(outcome.value);
      else w.reject(outcome.error);
    }
  }
}
