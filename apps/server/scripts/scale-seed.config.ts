/**
 * `make scale-seed` settings: the environment parsed by one Zod schema, as the app's own
 * configuration is (src/config.ts), and the plan of what a community of that size holds.
 */
import { strongPassword } from '@starlight/shared';
import { z } from 'zod';

/** The documented default password of every seeded member (passes SPEC §5's strength rule). */
export const DEFAULT_SCALE_PASSWORD = 'Scale-Passw0rd!';
/** The embedded PGlite takes at most this many members; above it, use PostgreSQL. */
export const PGLITE_MAX_MEMBERS = 50_000;

/** A whole, non-negative count read from the environment; `name` is in every message. */
function count(name: string, fallback: number, max: number) {
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const text = raw?.trim().replaceAll('_', '') ?? '';
      if (text === '') return fallback;
      if (!/^[-+]?\d+(\.\d+)?$/.test(text)) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a number (got "${raw}")` });
        return z.NEVER;
      }
      const value = Number(text);
      if (value < 0) {
        ctx.addIssue({ code: 'custom', message: `${name} must not be negative (got ${raw})` });
        return z.NEVER;
      }
      if (!Number.isInteger(value)) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a whole number (got ${raw})` });
        return z.NEVER;
      }
      if (value > max) {
        ctx.addIssue({ code: 'custom', message: `${name} must be at most ${max} (got ${raw})` });
        return z.NEVER;
      }
      return value;
    });
}

const settingsSchema = z
  .object({
    SCALE_MEMBERS: count('SCALE_MEMBERS', 1_000_000, 50_000_000),
    SCALE_TX: count('SCALE_TX', 10_000_000, 1_000_000_000),
    SCALE_PASSWORD: z
      .string()
      .optional()
      .transform((v) => (v === undefined || v === '' ? DEFAULT_SCALE_PASSWORD : v))
      .pipe(strongPassword),
  })
  .superRefine((s, ctx) => {
    if (s.SCALE_MEMBERS < 100) {
      ctx.addIssue({
        code: 'custom',
        path: ['SCALE_MEMBERS'],
        message: `SCALE_MEMBERS must be at least 100 (got ${s.SCALE_MEMBERS})`,
      });
    }
    if (s.SCALE_TX < 2 * s.SCALE_MEMBERS) {
      ctx.addIssue({
        code: 'custom',
        path: ['SCALE_TX'],
        message: `SCALE_TX must be at least twice SCALE_MEMBERS (${2 * s.SCALE_MEMBERS}): every holder's balance needs its ledger rows (got ${s.SCALE_TX})`,
      });
    }
  });

export type ScaleSettings = z.infer<typeof settingsSchema>;

/**
 * Parses the scale settings from `env`. Throws an Error whose message names each bad variable
 * (`SCALE_MEMBERS must not be negative (got -5)`).
 */
export function loadScaleSettings(env: NodeJS.ProcessEnv = process.env): ScaleSettings {
  const result = settingsSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => {
      const name = i.path.join('.');
      return i.message.startsWith(name) ? i.message : `${name}: ${i.message}`;
    });
    throw new Error(`Bad scale settings:\n  ${lines.join('\n  ')}`);
  }
  return result.data;
}

/** How many rows each part writes (the figures at 1,000,000 members, in proportion). */
export interface ScalePlan {
  members: number;
  ledgerRows: number;
  /** Trades over the six pairs; the filled orders follow (every trade fills at least one order). */
  trades: number;
  cancelledOrders: number;
  openOrdersBusiest: number;
  openOrdersOther: number;
  recipes: number;
  processes: number;
  checkouts: number;
  chipBuys: number;
  collections: number;
  items: number;
  /** Open marketplace listings. */
  listings: number;
  accessLogs: number;
  adminLogs: number;
  settlements: number;
  mints: number;
  burns: number;
  distributions: number;
  distributionRecipients: number;
  /** member1's share of each part (the heaviest history). */
  member1: {
    orders: number;
    processes: number;
    checkouts: number;
    items: number;
    listings: number;
    ledgerRows: number;
  };
}

/** Ledger rows per unit of each part, as the generators write them (for the budget). */
const ROWS_PER = {
  // Escrow in (20), two trade rows (22), a few price improvements and cancels, fees on one small pair.
  trade: 3.35,
  process: 1.95,
  checkout: 0.78,
  chipBuy: 2.8,
  settlement: 1.45,
};

/**
 * The plan for `members` and `ledgerRows`: every part at its figure per 1,000,000 members, scaled down
 * together when SCALE_TX cannot hold them beside the members' funding rows (1.7 per member) and a
 * share of plain transfers. member1's minimums hold whatever the size.
 */
export function planFor(s: ScaleSettings): ScalePlan {
  const n = s.SCALE_MEMBERS;
  const f = n / 1_000_000;
  const funding = Math.ceil(1.7 * n) + 100;
  const base = {
    trades: 2_000_000 * f,
    processes: Math.max(200_000 * f, 600),
    checkouts: Math.max(200_000 * f, 300),
    chipBuys: 50_000 * f,
    settlements: 50_000 * f,
  };
  const activityRows =
    base.trades * ROWS_PER.trade +
    base.processes * ROWS_PER.process +
    base.checkouts * ROWS_PER.checkout +
    base.chipBuys * ROWS_PER.chipBuy +
    base.settlements * ROWS_PER.settlement +
    30_000 * f;
  // At least 8% of the ledger stays for transfers (and member1's own), the rest holds the parts.
  const room = Math.max(0, s.SCALE_TX * 0.92 - funding - 12_000);
  const k = Math.min(1, room / activityRows);
  const r = (x: number, min = 0) => Math.max(min, Math.round(x));
  return {
    members: n,
    ledgerRows: s.SCALE_TX,
    trades: r(base.trades * k, 60),
    cancelledOrders: r(100_000 * f * k, 10),
    openOrdersBusiest: r(50_000 * f, 20),
    openOrdersOther: r(10_000 * f, 5),
    recipes: 50,
    processes: r(base.processes * k, 550),
    checkouts: r(base.checkouts * k, 220),
    chipBuys: r(base.chipBuys * k, 20),
    collections: 20,
    items: r(2_000_000 * f, 1500),
    listings: r(200_000 * f, 300),
    accessLogs: r(5_000_000 * f, 1000),
    adminLogs: r(100_000 * f, 100),
    settlements: r(base.settlements * k, 40),
    mints: r(20_000 * f * k, 10),
    burns: r(5_000 * f * k, 5),
    distributions: 6,
    distributionRecipients: r(Math.min(1000, n / 50) * Math.min(1, k * 2), 10),
    member1: { orders: 1000, processes: 500, checkouts: 200, items: 1000, listings: 50, ledgerRows: 10_000 },
  };
}

/**
 * The probe the estimate is scaled by: a load of the seed's own kind (a table of `PROBE_ROWS` rows written by
 * one statement, then indexed), timed on the database about to be filled.
 */
const PROBE_ROWS = 200_000;
const PROBE_SQL = [
  `CREATE TEMP TABLE scale_probe AS SELECT g, md5(g::text) AS h FROM generate_series(1, ${PROBE_ROWS}) g`,
  'CREATE INDEX ON scale_probe (h)',
  'DROP TABLE scale_probe',
];

/** What the probe took on the quiet 2-core machine of `estimatedMinutes`' figure (seconds). */
export const REFERENCE_PROBE_SECONDS = 0.55;

/**
 * Roughly how long a run of `s` takes (minutes, rounded up) where the probe (`PROBE_SQL`) took `probe`
 * seconds: the defaults took 7 min 34 s on a quiet 2-core machine where it took
 * `REFERENCE_PROBE_SECONDS`, about half of it growing with the members and half with the ledger rows, plus
 * a minute that any size costs (migrations, statistics, vacuum); the rest scales with the probe.
 */
export function estimatedMinutes(s: ScaleSettings, probe = REFERENCE_PROBE_SECONDS): number {
  const DEFAULTS_SECONDS = 454;
  const share = 0.5 * (s.SCALE_MEMBERS / 1_000_000) + 0.5 * (s.SCALE_TX / 10_000_000);
  const speed = Math.max(probe, 0.01) / REFERENCE_PROBE_SECONDS;
  return Math.ceil((60 + (DEFAULTS_SECONDS - 60) * share * speed) / 60);
}

/** Seconds the estimate's probe (`PROBE_SQL`) takes through `query` (one session of the database to fill). */
export async function probeSeconds(query: (text: string) => Promise<unknown>): Promise<number> {
  const t = performance.now();
  for (const text of PROBE_SQL) await query(text);
  return (performance.now() - t) / 1000;
}
