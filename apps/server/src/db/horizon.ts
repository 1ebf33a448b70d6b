/**
 * The committed horizon of time-stamped rows, for the jobs that follow the ledger and other
 * append-only tables incrementally (rollups, the kept leaderboard).
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from './client.ts';

/**
 * A time `h` such that every row stamped `created_at < h` by a transaction's `now()` (the column default)
 * belongs to a transaction that has already ended: the start of the oldest transaction still open on this
 * database (any session, any replica), or now when none is. Rows below `h` can be summed once and never
 * change afterwards; rows at or above it may still be arriving.
 *
 * Read it in its own statement BEFORE the statement that reads the rows (under READ COMMITTED each
 * statement takes a fresh snapshot, which then sees every transaction that ended before `h` was read).
 * Sessions of other roles count only when the role may read their `xact_start` (pg_read_all_stats); the
 * app uses one role.
 */
export async function committedHorizon(db: DbOrTx): Promise<Date> {
  const res = await db.execute<{ h: string | Date }>(sql`
    SELECT least(clock_timestamp(),
                 (SELECT min(xact_start) FROM pg_stat_activity
                   WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL)) AS h`);
  const h = res.rows[0]?.h;
  if (h === undefined) throw new Error('committedHorizon: no row');
  return new Date(h);
}
