/**
 * Pure helpers of `make bench-scale`: the targets and their verdicts, the growth ratio, the
 * server's peak resident memory, the results table and the part of bench/RESULTS.md it is kept in.
 */
import { readFileSync } from 'node:fs';

/** Who calls a read route: signed out, signed in as `member1`, or as the admin. */
export type Audience = 'visitor' | 'member' | 'admin';

/** The targets at 1,000,000 members and 10,000,000 ledger rows. */
export const TARGETS = {
  /** p99 (ms) of every visitor and member read. */
  memberP99Ms: 50,
  /** p99 (ms) of every admin read. */
  adminP99Ms: 250,
  /** Answers per second of the public leaderboard (signed out). */
  leaderboardRps: 1000,
  /** A write case's ratio to pgbench on the big database, as a share of its ratio on an empty one. */
  writeShareOfEmpty: 0.9,
  /** The server's peak resident memory, MB. */
  memoryMb: 400,
  /** p50 at 1,000,000 members over p50 at 10,000. */
  growth: 2,
} as const;

/** The figures of one read case (one route, one caller, one body) at `connections` for `duration_s`. */
export interface ReadFigures {
  case: string;
  audience: Audience;
  route: string;
  requests_per_s: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
  non2xx: number;
  status_codes?: Record<string, number>;
}

/** A read case's verdict: its p99 target by audience (and the leaderboard's rate); any non-2xx fails it. */
export function readVerdict(r: ReadFigures): { met: boolean; target: string } {
  const p99Limit = r.audience === 'admin' ? TARGETS.adminP99Ms : TARGETS.memberP99Ms;
  const parts = [`p99 <= ${p99Limit} ms`, 'no errors'];
  let met = r.p99_ms <= p99Limit && r.errors === 0 && r.non2xx === 0;
  if (r.case === LEADERBOARD_CASE) {
    parts.push(`>= ${TARGETS.leaderboardRps} req/s`);
    met = met && r.requests_per_s >= TARGETS.leaderboardRps;
  }
  return { met, target: parts.join(', ') };
}

/** The read case whose rate has a target of its own: the public leaderboard, signed out. */
export const LEADERBOARD_CASE = 'visitor_leaderboard';

/**
 * p50 at scale over p50 on the small database. autocannon counts whole milliseconds, so both are taken
 * as at least 1 ms (a 0 ms small p50 would make any figure an infinite ratio). Null when either is missing.
 */
export function growthRatio(bigP50: number | undefined, smallP50: number | undefined): number | null {
  if (bigP50 === undefined || smallP50 === undefined) return null;
  return Math.round((Math.max(bigP50, 1) / Math.max(smallP50, 1)) * 100) / 100;
}

/**
 * A write case on the big database against the same case on an empty one (each as its ratio to pgbench
 * TPC-B of the same run): the share kept, and whether it is within TARGETS.writeShareOfEmpty (faster
 * at scale counts as met).
 */
export function writeShare(bigRatio: number, emptyRatio: number): { share: number; met: boolean } {
  const share = emptyRatio > 0 ? Math.round((bigRatio / emptyRatio) * 1000) / 1000 : 0;
  return { share, met: share >= TARGETS.writeShareOfEmpty };
}

/** VmHWM (peak resident set) of `/proc/<pid>/status` text, in kB; null when absent. */
export function parseVmHwmKb(status: string): number | null {
  const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
  return m?.[1] ? Number(m[1]) : null;
}

/** The peak resident memory of process `pid` so far, in MB (one decimal); null off Linux or when gone. */
export function peakMemoryMb(pid: number): number | null {
  try {
    const kb = parseVmHwmKb(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return kb === null ? null : Math.round(kb / 102.4) / 10;
  } catch {
    return null;
  }
}

/** One row of the printed table and of RESULTS_FILE's. */
export interface TableRow {
  what: string;
  figure: string;
  target: string;
  met: boolean | null;
}

/** A Markdown table of `rows` (met: "met", "missed", or "-" when there is no target). */
export function markdownTable(rows: readonly TableRow[]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const lines = ['| what | measured | target | |', '|---|---|---|---|'];
  for (const r of rows)
    lines.push(
      `| ${esc(r.what)} | ${esc(r.figure)} | ${esc(r.target)} | ${r.met === null ? '-' : r.met ? 'met' : '**missed**'} |`,
    );
  return lines.join('\n');
}

/** Where bench-scale keeps its table, from the repository's root. */
export const RESULTS_FILE = 'bench/RESULTS.md';

/** The heading of bench-scale's part of RESULTS_FILE; everything up to the next heading of level 1 to 3 is its part. */
export const RESULTS_HEADING = '## Measured at scale';

/** What RESULTS_FILE starts with when it does not exist yet. */
const RESULTS_TITLE = '# Bench results';

/**
 * `results` (RESULTS_FILE's text, '' when there is none yet) with bench-scale's part replaced by `body`
 * under RESULTS_HEADING. Without that heading yet, the part goes at the end (after a title when the text
 * is empty). Nothing outside the part changes; the other benches' parts stay as they are.
 */
export function replaceResultsSection(results: string, body: string): string {
  const part = [RESULTS_HEADING, '', ...body.trim().split('\n'), ''];
  const lines = (results.trim() === '' ? `${RESULTS_TITLE}\n` : results).split('\n');
  const splice = (from: number, to: number) => {
    const before = lines.slice(0, from);
    while (before.length > 0 && before[before.length - 1] === '') before.pop();
    const after = lines.slice(to);
    while (after.length > 0 && after[0] === '') after.shift();
    return [...before, '', ...part, ...after].join('\n');
  };
  const own = lines.indexOf(RESULTS_HEADING);
  if (own < 0) return splice(lines.length, lines.length);
  let end = own + 1;
  while (end < lines.length && !/^#{1,3} /.test(lines[end] as string)) end++;
  return splice(own, end);
}
