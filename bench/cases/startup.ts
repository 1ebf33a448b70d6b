/**
 * The start-up case: how long a server takes from `node` starting to its first healthy
 * answer on a migrated database, as a rolling restart or a new replica of a cluster pays it. Five
 * servers are started one after the other beside the bench's own, on its database (migrated, seeded),
 * each asked for /api/health every 5 ms and stopped once healthy. Target: every start within 1 s.
 */
import type { Suite } from '../lib/context.ts';

/** Starts measured. */
const STARTS = 5;
/** The target: healthy within 1 s of `node` starting. */
const TARGET_MS = 1000;

export const startupSuite: Suite = {
  name: 'startup',
  cases: ['startup'],
  usesPgbench: false,
  async run(ctx, selected, report) {
    if (!selected('startup') || !ctx.startReplica) return;
    ctx.log(`startup: ${STARTS} starts on the migrated database...`);
    const times: number[] = [];
    for (let i = 0; i < STARTS; i++) {
      const server = await ctx.startReplica(5);
      times.push(server.readyMs);
      await server.stop();
    }
    const sorted = [...times].sort((a, b) => a - b);
    const max = sorted[sorted.length - 1] ?? 0;
    report({
      case: 'startup',
      p50_ms: sorted[Math.floor(sorted.length / 2)] ?? 0,
      max_ms: max,
      starts_ms: times,
      target_ms: TARGET_MS,
      within_target: max <= TARGET_MS,
    });
  },
};
