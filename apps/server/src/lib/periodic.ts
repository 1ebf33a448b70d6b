/** Background jobs that every replica runs and one at a time does: rollups, the kept leaderboard. */

import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../db/client.ts';
import { inTransaction } from '../db/transaction.ts';

/** A running job; `stop()` ends its timer and waits for a tick in progress. */
export interface PeriodicJob {
  stop(): Promise<void>;
  /** Runs one tick now (tests and start-up), after any tick in progress. Resolves with its result. */
  runNow(): Promise<void>;
}

/**
 * Runs `tick` every `everyMs` milliseconds (the next tick is scheduled when one ends, so ticks never
 * overlap in a process). A tick that throws is logged and the job goes on. `unref`'d timers: a job
 * never keeps the process alive.
 */
export function startPeriodic(opts: {
  name: string;
  everyMs: number;
  tick: () => Promise<void>;
  log: FastifyBaseLogger;
}): PeriodicJob {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const once = (): Promise<void> => {
    running = running.then(async () => {
      try {
        await opts.tick();
      } catch (err) {
        opts.log.error({ err, job: opts.name }, 'background job failed');
      }
    });
    return running;
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      void once().then(schedule);
    }, opts.everyMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
    runNow: once,
  };
}

/**
 * Runs `work` in a transaction that holds the job's advisory lock (`pg_try_advisory_xact_lock`, released
 * at commit, nothing tied to a session), so of several replicas only one does a job's tick at a time.
 * Returns `work`'s result, or `undefined` when another process holds the lock (it is doing the tick).
 */
export async function withJobLock<T>(db: Db, name: string, work: (tx: Tx) => Promise<T>): Promise<T | undefined> {
  return inTransaction(db, async (tx) => {
    const res = await tx.execute<{ ok: boolean }>(
      sql`SELECT pg_try_advisory_xact_lock(hashtext(${`job:${name}`})) AS ok`,
    );
    if (!res.rows[0]?.ok) return undefined;
    return work(tx);
  });
}
