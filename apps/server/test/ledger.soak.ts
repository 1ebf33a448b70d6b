/**
 * `make soak`: the ledger model of ledger.property.test.ts, across bank and exchange, for
 * SOAK_STEPS commands (default 10,000), seeded. It prints the seed first, and the steps run and the
 * invariant checks passed at the end; a failure names its batch, and `SOAK_SEED=<seed> make soak`
 * replays the same commands. Not part of `make test` (its file name is not *.test.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './helpers.ts';
import { ledgerModel } from './models/ledger-model.ts';

const STEPS = Number(process.env.SOAK_STEPS ?? 10_000);
const SEED = Number(process.env.SOAK_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** Commands per run, and runs per seeded batch. */
const MAX_COMMANDS = 50;
const RUNS_PER_BATCH = 10;

const t = useTestApp();

describe('soak: the ledger model for many steps', () => {
  it(`runs ${STEPS} steps of bank and exchange commands against the model`, { timeout: 4 * 3600_000 }, async () => {
    console.log(`soak: seed ${SEED}, ${STEPS} steps (replay with SOAK_SEED=${SEED})`);
    const started = Date.now();
    const { property, stats } = ledgerModel(t, MAX_COMMANDS);
    for (let batch = 0; stats.steps < STEPS; batch++) {
      const seed = (SEED + batch) % 2 ** 31;
      try {
        await fc.assert(property, { numRuns: RUNS_PER_BATCH, seed });
      } catch (err) {
        console.log(`soak: failed in batch ${batch} (fast-check seed ${seed}) after ${stats.steps} steps`);
        throw err;
      }
      if (batch % 10 === 9) console.log(`soak: ${stats.steps} steps, ${stats.checks} checks`);
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    console.log(
      `soak: ${stats.steps} steps run in ${stats.runs} runs, ${stats.checks} invariant checks passed, ${seconds} s, seed ${SEED}`,
    );
    expect(stats.steps).toBeGreaterThanOrEqual(STEPS);
  });
});
