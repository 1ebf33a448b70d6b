/** The pure helpers of `make bench-scale` (bench/lib/scale.ts): verdicts, growth, memory, the part of bench/RESULTS.md. */
import { describe, expect, it } from 'vitest';
import { parsePgbench } from './pgbench.ts';
import {
  growthRatio,
  LEADERBOARD_CASE,
  markdownTable,
  parseVmHwmKb,
  RESULTS_HEADING,
  type ReadFigures,
  readVerdict,
  replaceResultsSection,
  writeShare,
} from './scale.ts';

const read = (over: Partial<ReadFigures>): ReadFigures => ({
  case: 'member_history',
  audience: 'member',
  route: 'POST /api/bank/transactions',
  requests_per_s: 500,
  p50_ms: 10,
  p99_ms: 40,
  errors: 0,
  non2xx: 0,
  ...over,
});

describe('readVerdict', () => {
  it('holds visitor and member reads to 50 ms at p99 and admin reads to 250 ms', () => {
    expect(readVerdict(read({ p99_ms: 50 })).met).toBe(true);
    expect(readVerdict(read({ p99_ms: 51 })).met).toBe(false);
    expect(readVerdict(read({ audience: 'visitor', p99_ms: 51 })).met).toBe(false);
    expect(readVerdict(read({ audience: 'admin', p99_ms: 250 })).met).toBe(true);
    expect(readVerdict(read({ audience: 'admin', p99_ms: 251 })).met).toBe(false);
  });

  it('fails a case with any non-2xx answer or connection error, however fast', () => {
    expect(readVerdict(read({ non2xx: 1 })).met).toBe(false);
    expect(readVerdict(read({ errors: 1 })).met).toBe(false);
  });

  it('asks the public leaderboard for 1,000 answers a second as well', () => {
    const lb = read({ case: LEADERBOARD_CASE, audience: 'visitor', p99_ms: 20 });
    expect(readVerdict({ ...lb, requests_per_s: 999 }).met).toBe(false);
    expect(readVerdict({ ...lb, requests_per_s: 1000 }).met).toBe(true);
    expect(readVerdict(lb).target).toContain('1000 req/s');
  });
});

describe('growthRatio and writeShare', () => {
  it('divides the p50s, counting a 0 ms p50 as 1 ms (autocannon counts whole milliseconds)', () => {
    expect(growthRatio(8, 4)).toBe(2);
    expect(growthRatio(3, 0)).toBe(3);
    expect(growthRatio(0, 0)).toBe(1);
    expect(growthRatio(5, undefined)).toBeNull();
  });

  it('keeps a write case within 10% of its empty-database ratio, faster counting as met', () => {
    expect(writeShare(0.54, 0.6)).toEqual({ share: 0.9, met: true });
    expect(writeShare(0.5, 0.6)).toEqual({ share: 0.833, met: false });
    expect(writeShare(0.7, 0.6).met).toBe(true);
    expect(writeShare(0.5, 0).met).toBe(false);
  });
});

describe('parseVmHwmKb', () => {
  it('reads the peak resident set of /proc/<pid>/status', () => {
    expect(parseVmHwmKb('Name:\tnode\nVmPeak:\t 1234 kB\nVmHWM:\t  204800 kB\nVmRSS:\t 1000 kB\n')).toBe(204800);
    expect(parseVmHwmKb('Name:\tnode\n')).toBeNull();
  });
});

describe('parsePgbench', () => {
  it('reads the tps and the average latency of a pgbench summary', () => {
    const out = 'latency average = 8.994 ms\ntps = 3557.924141 (without initial connection time)\n';
    expect(parsePgbench(out)).toMatchObject({ tps: 3557.924141, latencyMs: 8.994 });
  });
});

describe('the part of bench/RESULTS.md', () => {
  const table = markdownTable([{ what: 'a | b', figure: '1 ms', target: '<= 50 ms', met: false }]);

  it('marks a missed row and escapes a pipe', () => {
    expect(table).toContain('| a \\| b | 1 ms | <= 50 ms | **missed** |');
  });

  it('goes at the end the first time, and replaces only its own part after', () => {
    const results = '# Bench results\n\nintro\n\n## Measured: `make bench-cluster`\n\ncluster table\n';
    const first = replaceResultsSection(results, 'first table');
    expect(first).toBe(`${results}\n${RESULTS_HEADING}\n\nfirst table\n`);
    const edited = first.replace('cluster table', 'cluster table, edited by hand');
    const second = replaceResultsSection(edited, 'second table');
    expect(second).toBe(edited.replace('first table', 'second table'));
  });

  it('stops at the next heading, so a part after its own stays', () => {
    const results = `# R\n\n${RESULTS_HEADING}\n\nold\n\n## Measured: \`make bench-cluster\`\n\nc\n`;
    expect(replaceResultsSection(results, 'new')).toBe(
      `# R\n\n${RESULTS_HEADING}\n\nnew\n\n## Measured: \`make bench-cluster\`\n\nc\n`,
    );
  });

  it('starts a missing file with its title', () => {
    expect(replaceResultsSection('', 't')).toBe(`# Bench results\n\n${RESULTS_HEADING}\n\nt\n`);
  });
});
