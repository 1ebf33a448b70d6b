/**
 * Helpers of the admin user list and user stats tests at size (users.admin.list.test.ts,
 * reports.user-stats.test.ts): bulk members written straight into a database of the file's own.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../src/db/client.ts';

/** How many bulk members a file writes. */
export const BULK = 12_000;

/**
 * Members bulk1 … bulkN in one INSERT … SELECT: created every 37 minutes from 2025-01-01 (three at each
 * instant, so the id breaks ties), with flags in fixed proportions.
 */
export async function bulkMembers(db: Db, n: number): Promise<void> {
  await db.execute(sql`
    INSERT INTO users (id, nickname, email, role, primary_wallet, is_active, is_wallet_only, is_email_verified,
                       is_anonymous, created_at)
    SELECT 'e' || lpad(to_hex(g), 23, '0'), 'bulk' || g,
           CASE WHEN g % 20 = 0 THEN NULL ELSE 'bulk' || g || '@bulk.example' END,
           CASE WHEN g % 500 = 0 THEN 'admin' WHEN g % 97 = 0 THEN 'creator' ELSE 'user' END,
           CASE WHEN g % 20 = 0 OR g % 7 = 0 THEN '0x' || lpad(to_hex(g), 40, '0') END,
           g % 50 <> 0, g % 20 = 0, g % 5 < 2, g % 10 = 0,
           timestamptz '2025-01-01T00:00:00Z' + (g / 3) * interval '37 minutes'
    FROM generate_series(1, ${n}) g`);
  await db.execute(sql`VACUUM ANALYZE users`);
}
