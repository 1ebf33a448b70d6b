/**
 * The ledger against a model: about 300 steps of bank and exchange commands on every
 * `make test` (25 runs of up to 12 commands); `make soak` runs the same model for 10,000 steps or more.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './helpers.ts';
import { ledgerModel } from './models/ledger-model.ts';

const t = useTestApp();

describe('the ledger against a model', () => {
  // Its own time limit: 25 runs of every area's commands, market included, on a machine shared with the suite.
  it('keeps every balance equal to the model, the book equal to the escrow and the audit balanced', {
    timeout: 180_000,
  }, async () => {
    const { property, stats } = ledgerModel(t, 12);
    await fc.assert(property, { numRuns: 25 });
    expect(stats.runs).toBe(25);
    expect(stats.steps).toBeGreaterThan(25);
  });
});
