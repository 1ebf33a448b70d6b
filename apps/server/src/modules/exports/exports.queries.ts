/** SQL of the CSV exports' download links (`export_links`, DESIGN §11.6). */
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { exportLinks } from '../../db/schema/index.ts';

/** Stores a download link (its token's hash) that lasts until `expiresAt`. */
export async function insertExportLink(
  db: DbOrTx,
  row: { tokenHash: string; userId: string; sessionId: string; path: string; query: string; expiresAt: Date },
): Promise<void> {
  await db.insert(exportLinks).values(row);
}

/**
 * Consumes the link `tokenHash` for the export at `path` with the filters `query` (canonical text): one
 * `DELETE … RETURNING`, so of two redemptions racing on any replicas one wins. Answers the session the
 * link was made in, or null when there is no such link, it expired, or it opens another export (a link for
 * other filters is left as it was).
 */
export async function consumeExportLink(
  db: DbOrTx,
  tokenHash: string,
  path: string,
  query: string,
): Promise<{ userId: string; sessionId: string } | null> {
  const [row] = await db
    .delete(exportLinks)
    .where(
      and(
        eq(exportLinks.tokenHash, tokenHash),
        eq(exportLinks.path, path),
        eq(exportLinks.query, query),
        gt(exportLinks.expiresAt, sql`now()`),
      ),
    )
    .returning({ userId: exportLinks.userId, sessionId: exportLinks.sessionId });
  return row ?? null;
}

/** Deletes the links that expired before `before`. */
export async function pruneExportLinks(db: DbOrTx, before: Date): Promise<void> {
  await db.delete(exportLinks).where(lt(exportLinks.expiresAt, before));
}
