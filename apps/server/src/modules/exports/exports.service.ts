/**
 * Download links of the CSV exports (DESIGN §11.6): the web asks for a link (with its session), then
 * opens it; the link is single use, lasts 60 seconds and opens only the export and filters it was made
 * for, as the member and session that made it. The session's token never appears in a URL.
 */
import { createHash, randomBytes } from 'node:crypto';
import { AppError, type CsvExportPath, MESSAGES } from '@starlight/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { type PeriodicJob, startPeriodic, withJobLock } from '../../lib/periodic.ts';
import { consumeExportLink, insertExportLink, pruneExportLinks } from './exports.queries.ts';

/** How long a download link works (DESIGN §11.6). */
export const EXPORT_LINK_TTL_MS = 60_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A query's filters as one canonical text (names sorted, `token` left out, URL-encoded), so the filters
 * a link was made for and those it is opened with compare as text. Null when a parameter is repeated or
 * not text (no export takes a list).
 */
export function canonicalQuery(query: unknown): string | null {
  if (query === undefined || query === null) return '';
  if (typeof query !== 'object') return null;
  const pairs: [string, string][] = [];
  for (const [name, value] of Object.entries(query)) {
    if (name === 'token' || value === undefined) continue;
    if (typeof value !== 'string') return null;
    pairs.push([name, value]);
  }
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new URLSearchParams(pairs).toString();
}

/**
 * A download link for the export at `path` with the filters `query` (already checked against the export's
 * schema), for the member `userId` in the session `sessionId`: `{url, expiresAt}`, `url` the path with its
 * filters and a random `token` (256 bits; only its SHA-256 is stored).
 */
export async function createExportLink(
  db: Db,
  userId: string,
  sessionId: string,
  path: CsvExportPath,
  query: Record<string, string> | undefined,
): Promise<{ url: string; expiresAt: string }> {
  const filters = canonicalQuery(query ?? {}) ?? '';
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + EXPORT_LINK_TTL_MS);
  await insertExportLink(db, { tokenHash: hashToken(token), userId, sessionId, path, query: filters, expiresAt });
  const url = `${path}?${filters === '' ? '' : `${filters}&`}token=${encodeURIComponent(token)}`;
  return { url, expiresAt: expiresAt.toISOString() };
}

/**
 * Redeems the download link `token` on the export at `path` (the route's path) with the request's `query`:
 * the session it was made in, whose member then makes the request (plugins/auth.ts checks the session and
 * the route's role as for a bearer token). Throws 401 `This link is invalid or has expired` for an unknown,
 * used or expired link, or one made for another export or other filters.
 */
export async function redeemExportLink(
  db: Db,
  token: string,
  path: string,
  query: unknown,
): Promise<{ userId: string; sessionId: string }> {
  const filters = canonicalQuery(query);
  const link = filters === null ? null : await consumeExportLink(db, hashToken(token), path, filters);
  if (!link) throw new AppError('UNAUTHORIZED', MESSAGES.invalidLink);
  return link;
}

/** Deletes expired links every `everyMs`, one replica at a time. */
export function startExportLinkPruning(db: Db, log: FastifyBaseLogger, everyMs = 10 * 60 * 1000): PeriodicJob {
  return startPeriodic({
    name: 'prune-export-links',
    everyMs,
    log,
    tick: async () => {
      await withJobLock(db, 'prune-export-links', (tx) => pruneExportLinks(tx, new Date()));
    },
  });
}
