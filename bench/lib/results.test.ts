/**
 * failedChecks (bench/lib/results.ts): the consistency checks that make `make bench` fail; withCpuPass: the
 * second pass's figures beside the first.
 */
import { describe, expect, it } from 'vitest';
import { failedChecks, withCpuPass } from './results.ts';

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

describe('withCpuPass', () => {
  it('keeps the first pass and adds the second pass ratio, p99 and pgbench figure beside it', () => {
    const first = { case: 'mint', mints_per_s: 3000, p99_ms: 18, pgbench_tps: 4000, ratio: 0.75, audit_ok: true };
    const second = { case: 'mint', mints_per_s: 5000, p99_ms: 9, pgbench_tps: 10000, ratio: 0.5, audit_ok: true };
    expect(withCpuPass(first, second)).toEqual({
      ...first,
      ratio_cpu: 0.5,
      p99_ms_cpu: 9,
      pgbench_tps_cpu: 10000,
    });
  });
});
