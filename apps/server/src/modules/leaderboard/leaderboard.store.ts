/**
 * Where the kept leaderboard lives: one interface, two stores. With `REDIS_URL`, a Redis
 * sorted set per currency; otherwise (PGlite, or PostgreSQL alone) the `leaderboard_entries` table. Both
 * rank by amount, highest first, ties by member id ascending (DESIGN §6), exactly: no amount passes
 * through a double. The background job (leaderboard.sync.ts) is their only writer. The stores are
 * leaderboard.table-store.ts and leaderboard.redis-store.ts.
 */
import { fromNumeric } from '@starlight/shared';
import type { DbOrTx } from '../../db/client.ts';

/** A ranked holder: member id and amount in 10^-9 units. */
export interface RankEntry {
  userId: string;
  amount: bigint;
}

/** A holder's state now: `amount` null when they leave the ranking (zero, deactivated, system). */
export interface RankChange {
  currencyId: number;
  userId: string;
  amount: bigint | null;
}

/** The kept ranking seen from one place (`at`, the viewer's current holding) of one currency. */
export interface RankWindow {
  /** The first entries, in rank order. */
  top: RankEntry[];
  /** The viewer's amount as kept (it may lag their balance by a tick); null when not kept. */
  kept: bigint | null;
  /** How many kept entries rank strictly ahead of `at` (the viewer's own kept entry included if so). */
  ahead: number;
  /** Entries just ahead of `at`, nearest first. */
  before: RankEntry[];
  /** Entries just after `at`, nearest first. */
  after: RankEntry[];
}

/** What the route reads and the job writes; see the two implementations below. */
export interface LeaderboardStore {
  readonly kind: 'redis' | 'table';
  /**
   * The first `top` entries of `currencyId` (none when 0) and, for a viewer, their kept amount and the
   * ranking around `at` (`near` entries either side, `ahead` the count above it). One round trip.
   */
  read(
    db: DbOrTx,
    currencyId: number,
    top: number,
    viewer: { userId: string; at: RankEntry | null } | null,
    near: number,
  ): Promise<RankWindow>;
  /** The committed horizon the store is in step with, null when it has never been built (or was lost). */
  mark(tx: DbOrTx): Promise<Date | null>;
  /** A token that changes whenever the job has written (the mark as stored), null before the first build: one cheap read. */
  version(db: DbOrTx): Promise<string | null>;
  /** Applies `changes` (idempotent: each is a state, not a delta), then records `mark`. */
  apply(tx: DbOrTx, changes: RankChange[], mark: Date): Promise<void>;
  /** Replaces the whole ranking by the ranked holders of `balances` as read now, and records `mark`. */
  rebuild(tx: DbOrTx, mark: Date): Promise<void>;
}

/** True when `a` ranks strictly ahead of `b` (amount highest first, then member id ascending). */
export function ranksAhead(a: RankEntry, b: RankEntry): boolean {
  return a.amount > b.amount || (a.amount === b.amount && a.userId < b.userId);
}

/** numeric text (`12.500000000`) as 10^-9 units. */
export function units(text: string): bigint {
  return fromNumeric(text);
}

/** 10^-9 units as numeric text. */
export function numeric(u: bigint): string {
  const s = u.toString().padStart(10, '0');
  return `${s.slice(0, -9)}.${s.slice(-9)}`;
}
