/** failedChecks (bench/lib/results.ts): the consistency checks that make `make bench` fail (issue 20). */
import { describe, expect, it } from 'vitest';
import { failedChecks } from './results.ts';

describe('failedChecks', () => {
  it('names every consistency check a case failed', () => {
    expect(failedChecks({ case: 'forge_claim', audit_ok: true, paid_once: false })).toEqual(['paid_once']);
    expect(failedChecks({ case: 'webhook_completed', audit_ok: false, credited_once: false })).toEqual([
      'audit_ok',
      'credited_once',
    ]);
    expect(failedChecks({ case: 'transfer_taxed', audit_ok: true, ledger_rows_match: false })).toEqual([
      'ledger_rows_match',
    ]);
  });

  it('passes a case whose checks held or that reports none', () => {
    expect(failedChecks({ case: 'forge_claim', audit_ok: true, paid_once: true })).toEqual([]);
    expect(failedChecks({ case: 'web', requests_per_s: 100 })).toEqual([]);
  });
});
