/**
 * The admin's user stats (SPEC §2 Admin Console User Logs, SPEC §3 getUserStats; DESIGN §8), a read model
 * of the reports module: counts of accounts created in a date range, from the counts kept per UTC day and
 * hour (user-stats.queries.ts), and their check at start.
 */
import type { GetUserStatsRequest, GetUserStatsResponse } from '@starlight/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { ensureUserStats, findUserStats } from './user-stats.queries.ts';

/**
 * `getUserStats`: SPEC §3's counts over accounts created in the range (`startDate`, `endDate`: ISO dates or
 * moments, either left out for unbounded), from the counts kept per UTC day (whole days) and hour, and an
 * exact count of any part of an hour at the range's ends. Read on `readDb` (lag-tolerant).
 */
export async function getUserStats(readDb: Db, range: GetUserStatsRequest): Promise<GetUserStatsResponse> {
  return { stats: await findUserStats(readDb, range.startDate, range.endDate), message: 'OK' };
}

/** At start: builds the kept user stats on the primary when their state is missing (`ensureUserStats`). */
export async function prepareUserStats(db: Db, log: FastifyBaseLogger): Promise<void> {
  if (await ensureUserStats(db)) log.info('user stats rebuilt (their kept state was missing)');
}
