/** Download links of the CSV exports (DESIGN §11.6): single use, 60 seconds, bound to a member's session. */
import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { objectId } from './columns.ts';
import { users } from './users.ts';

/**
 * One download link: the SHA-256 of its random token (the token itself is only in the member's URL), the
 * member and session that asked for it (the session must still be alive when it is used), and the export
 * it opens: its path and its filters as a canonical query string. Consumed by one `DELETE … RETURNING`,
 * so any replica redeems it, once.
 */
export const exportLinks = pgTable(
  'export_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: objectId('user_id')
      .notNull()
      .references(() => users.id),
    sessionId: objectId('session_id').notNull(),
    path: text('path').notNull(),
    query: text('query').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  // Pruning the expired.
  (t) => [index('export_links_expires').on(t.expiresAt)],
);
