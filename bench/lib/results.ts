/** One JSON line of figures per case: printed, kept as bench/results/<case>.json, appended to history. */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type Figures = { case: string } & Record<string, unknown>;

/** Rounds to `digits` decimals (figures are for reading, not for further arithmetic). */
export function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Prints `figures` as one line and writes it under `dir`. */
export function record(dir: string, figures: Figures): void {
  const line = JSON.stringify(figures);
  console.log(line);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${figures.case}.json`), `${line}\n`);
  appendFileSync(path.join(dir, 'history.jsonl'), `${JSON.stringify({ at: new Date().toISOString(), ...figures })}\n`);
}

/**
 * The consistency checks a case's `figures` failed, by name: the audit after the case (`audit_ok`), the
 * ledger rows against the acknowledged operations (`ledger_rows_match`), each forge process paid once
 * (`paid_once`) and each checkout credited once (`credited_once`). A check a case does not report is not
 * failed. `make bench` and `make bench-scale` exit non-zero when any case fails one.
 */
export function failedChecks(figures: Figures): string[] {
  const checks = ['audit_ok', 'ledger_rows_match', 'paid_once', 'credited_once'] as const;
  return checks.filter((name) => figures[name] === false);
}

/**
 * The figures of a case's second pass (`synchronous_commit=off`) set beside its first: `ratio_cpu`,
 * `p99_ms_cpu` and `pgbench_tps_cpu`.
 */
export function withCpuPass(first: Figures, second: Figures): Figures {
  return {
    ...first,
    ratio_cpu: second.ratio,
    p99_ms_cpu: second.p99_ms,
    pgbench_tps_cpu: second.pgbench_tps,
    ...(second.cpu_pct ? { cpu_pct_cpu: second.cpu_pct } : {}),
  };
}
