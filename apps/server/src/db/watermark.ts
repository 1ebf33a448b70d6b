/** The watermark of a kept structure (the ledger rollup, the kept candles) read ahead of a query. */
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryPlanned } from './client.ts';

/**
 * The watermark as a constant, read in a statement of its own: a lower bound of the one the next
 * statement sees (it only moves forward), which the planner can use. Each query bounds its ledger tail
 * by both: this one makes it an index range on `created_at`, the statement's own keeps it exact. A
 * named statement, planned once per connection (it is sent before every deep Tnx Logs page and total).
 */
export async function watermarkBefore(db: DbOrTx, table: SQL): Promise<string> {
  const rows = await queryPlanned<{ w: string }>(
    db,
    sql`SELECT coalesce((SELECT watermark FROM ${table} WHERE id = 1), '-infinity'::timestamptz)::text AS w`,
  );
  return rows[0]?.w ?? '-infinity';
}
