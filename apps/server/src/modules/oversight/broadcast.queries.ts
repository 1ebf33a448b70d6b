/**
 * SQL of the admin console's list of broadcasts (DESIGN §11.3): the admin's broadcasts, newest first, a
 * page at a time, read from the partial index `broadcasts_sent` (created_at, id) WHERE kind = 'broadcast'
 * (the alert level's changes share the table and are not listed).
 * Reads other modules' tables: `broadcasts` (the notifications module's: written by `writeBroadcast`).
 */
import type { SentBroadcast } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { type DbOrTx, queryPlanned } from '../../db/client.ts';
import { cappedTotal } from '../../db/paging.ts';

/** One page of the admin's broadcasts (`limit` rows from `offset`), newest first, with the total sent. */
export async function findBroadcasts(
  db: DbOrTx,
  opts: { limit: number; offset: number },
): Promise<{ broadcasts: SentBroadcast[]; total: number }> {
  const [rows, count] = await Promise.all([
    queryPlanned<{
      id: string;
      title: string;
      body: string;
      link: string | null;
      role: string | null;
      created_at: Date | string;
    }>(
      db,
      sql`SELECT id, title, body, link, role, created_at FROM broadcasts WHERE kind = 'broadcast'
          ORDER BY created_at DESC, id DESC LIMIT ${opts.limit} OFFSET ${opts.offset}`,
    ),
    cappedTotal(db, sql`broadcasts WHERE kind = 'broadcast'`, opts.offset),
  ]);
  const broadcasts = rows.map((r) => ({
    _id: r.id,
    title: r.title,
    body: r.body,
    link: r.link,
    role: r.role,
    createdAt: new Date(r.created_at).toISOString(),
  }));
  return { broadcasts, total: count.total };
}
