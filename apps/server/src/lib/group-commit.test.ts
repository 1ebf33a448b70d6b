/**
 * Group commit (DESIGN §9): jobs that arrive while a lane's batch is written go together in the
 * next batch, in arrival order, at most `maxBatch` of them; a lane's batches never overlap; a batch that
 * failed as a whole runs its jobs one by one before the next batch, so only the faulty job fails. Between two
 * batches a lane lets the event loop take one turn, so what arrived with the last answer joins the next. A
 * batch that failed once its COMMIT had left fails each of its jobs, never runs them again.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { GroupCommit, type Outcome } from './group-commit.ts';

/** A run function whose batches end when the test says so, with a log of what happened in which order. */
function controlledLane() {
  const log: string[] = [];
  const pending: Array<{ jobs: readonly number[]; finish(fail?: boolean): void }> = [];
  let running = 0;
  let maxRunning = 0;
  const run = (_lane: string, jobs: readonly number[]) =>
    new Promise<Outcome<number>[]>((resolve, reject) => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      log.push(`start ${jobs.join(',')}`);
      pending.push({
        jobs,
        finish(fail) {
          running--;
          if (fail) reject(new Error('the batch failed'));
          else
            resolve(
              jobs.map((j) => (j < 0 ? { ok: false, error: new Error(`refused ${j}`) } : { ok: true, value: j * 10 })),
            );
        },
      });
    });
  return { log, pending, run, maxRunning: () => maxRunning };
}

/** Lets every queued callback run: promise callbacks, and the turn of the event loop a lane waits between batches. */
const settle = async () => {
  for (let i = 0; i < 3; i++) await nextTurn();
};

describe('GroupCommit', () => {
  it('batches what arrives meanwhile in arrival order, up to maxBatch, never two batches of a lane at once', async () => {
    const lane = controlledLane();
    const gc = new GroupCommit<number, number>(lane.run, 3);
    const answers: Array<Promise<number>> = [];
    const submit = (j: number) => {
      const p = gc.submit('l', j);
      p.then((v) => lane.log.push(`answer ${v}`)).catch(() => {});
      answers.push(p);
    };
    submit(1);
    await settle();
    for (const j of [2, 3, 4, 5]) submit(j);
    await settle();
    expect(lane.log).toEqual(['start 1']);
    lane.pending[0]?.finish();
    await settle();
    // The first job has its answer, and the next batch takes three of the four waiting.
    expect(lane.log.slice(1).sort()).toEqual(['answer 10', 'start 2,3,4']);
    lane.pending[1]?.finish();
    await settle();
    expect(lane.log.slice(3).sort()).toEqual(['answer 20', 'answer 30', 'answer 40', 'start 5']);
    lane.pending[2]?.finish();
    await expect(Promise.all(answers)).resolves.toEqual([10, 20, 30, 40, 50]);
    expect(lane.maxRunning()).toBe(1);
    // An idle lane runs a new job at once.
    submit(6);
    await settle();
    expect(lane.log.at(-1)).toBe('start 6');
    lane.pending[3]?.finish();
    await expect(answers[5]).resolves.toBe(60);
  });

  it('answers each job its own outcome, and reruns a failed batch one by one before the next batch', async () => {
    const lane = controlledLane();
    const gc = new GroupCommit<number, number>(lane.run, 32);
    const first = gc.submit('l', 1);
    await settle();
    const batch = [2, -3, 4].map((j) => gc.submit('l', j));
    for (const p of batch) p.catch(() => {}); // handled below, once every batch has ended
    await settle();
    lane.pending[0]?.finish();
    await settle();
    const later = gc.submit('l', 5);
    lane.pending[1]?.finish(true); // the batch 2,-3,4 fails as a whole
    await settle();
    expect(lane.log).toEqual(['start 1', 'start 2,-3,4', 'start 2']);
    lane.pending[2]?.finish();
    await settle();
    lane.pending[3]?.finish(true); // -3 alone fails too
    await settle();
    lane.pending[4]?.finish();
    await settle();
    expect(lane.log.slice(2)).toEqual(['start 2', 'start -3', 'start 4', 'start 5']);
    lane.pending[5]?.finish();
    await expect(first).resolves.toBe(10);
    await expect(batch[0]).resolves.toBe(20);
    await expect(batch[1]).rejects.toThrow('the batch failed');
    await expect(batch[2]).resolves.toBe(40);
    await expect(later).resolves.toBe(50);
    expect(lane.maxRunning()).toBe(1);
  });

  it('fails every job of a batch that failed once its COMMIT had left, and never runs them again', async () => {
    // A connection lost while the database committed: the batch may have been written, so a rerun of its
    // jobs one by one could write each twice.
    const runs: number[][] = [];
    const gc = new GroupCommit<number, number>(async (_lane, jobs, commit) => {
      runs.push([...jobs]);
      if (jobs.length > 1) {
        commit.onCommitSent();
        throw new Error('Connection terminated unexpectedly');
      }
      return jobs.map((j) => ({ ok: true, value: j * 10 }));
    }, 32);
    const first = gc.submit('l', 1);
    const batch = [2, 3].map((j) => gc.submit('l', j));
    for (const p of batch) p.catch(() => {});
    await expect(first).resolves.toBe(10);
    for (const p of batch) await expect(p).rejects.toThrow('Connection terminated unexpectedly');
    expect(runs).toEqual([[1], [2, 3]]);
    // The lane goes on.
    await expect(gc.submit('l', 4)).resolves.toBe(40);
  });

  it('runs again one by one the jobs of a batch whose COMMIT the database answered with ROLLBACK', async () => {
    // The COMMIT went behind the batch's last statement, which failed: nothing was written.
    const runs: number[][] = [];
    const gc = new GroupCommit<number, number>(async (_lane, jobs, commit) => {
      runs.push([...jobs]);
      commit.onCommitSent();
      if (jobs.includes(-3)) {
        commit.onCommitRefused();
        throw new Error('Insufficient funds');
      }
      return jobs.map((j) => ({ ok: true, value: j * 10 }));
    }, 32);
    const first = gc.submit('l', 1);
    const batch = [2, -3, 4].map((j) => gc.submit('l', j));
    for (const p of batch) p.catch(() => {});
    await expect(first).resolves.toBe(10);
    await expect(batch[0]).resolves.toBe(20);
    await expect(batch[1]).rejects.toThrow('Insufficient funds');
    await expect(batch[2]).resolves.toBe(40);
    expect(runs).toEqual([[1], [2, -3, 4], [2], [-3], [4]]);
  });

  it('takes into the next batch a job that arrives in the same turn of the event loop as the last answer', async () => {
    const lane = controlledLane();
    const gc = new GroupCommit<number, number>(lane.run, 32);
    const answers = [gc.submit('l', 1)];
    await settle();
    answers.push(gc.submit('l', 2));
    lane.pending[0]?.finish();
    // A request read from its socket after the database's answer, in the same turn of the event loop.
    setImmediate(() => answers.push(gc.submit('l', 3)));
    await settle();
    expect(lane.log).toEqual(['start 1', 'start 2,3']);
    lane.pending[1]?.finish();
    await expect(Promise.all(answers)).resolves.toEqual([10, 20, 30]);
  });

  it('keeps lanes apart: a batch of one lane does not wait for another', async () => {
    const lane = controlledLane();
    const gc = new GroupCommit<number, number>(lane.run, 32);
    const a = gc.submit('a', 1);
    const b = gc.submit('b', 2);
    await settle();
    expect(lane.log).toEqual(['start 1', 'start 2']);
    lane.pending[1]?.finish();
    await expect(b).resolves.toBe(20);
    lane.pending[0]?.finish();
    await expect(a).resolves.toBe(10);
  });

  it('rejects with the outcome a batch gives a refused job, and when a batch answers none', async () => {
    const gc = new GroupCommit<number, number>(
      async (_lane, jobs) =>
        jobs
          .filter((j) => j !== 0)
          .map((j) => (j < 0 ? { ok: false, error: new Error(`refused ${j}`) } : { ok: true, value: j })),
      32,
    );
    await expect(gc.submit('l', -1)).rejects.toThrow('refused -1');
    await expect(gc.submit('l', 0)).rejects.toThrow('a batch answered no outcome for this job');
  });
});
