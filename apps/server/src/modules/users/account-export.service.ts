/**
 * "Download my data" (DESIGN §11.6): the account's own data as one JSON document, `{exportedAt, profile,
 * balances, history, items, orders, forgeProcesses, checkouts, sessions, signIns}`, written as it is read
 * (keyset pages of `PAGE_ROWS` rows), so an account with a long history never sits whole in memory.
 */
import { AppError } from '@starlight/shared';
import type { Db } from '../../db/client.ts';
import { EXPORT_PARTS, type ExportCursor, exportPage, exportProfile } from './account-export.queries.ts';

/** Rows read per page of a part. */
const PAGE_ROWS = 500;

/**
 * The export of `userId` as chunks of JSON text, read `pageRows` rows at a time; 404 before the first
 * chunk when the account is gone. Stops reading when the consumer stops (a client that went away ends the
 * iteration).
 */
export async function exportAccount(db: Db, userId: string, pageRows = PAGE_ROWS): Promise<AsyncIterable<string>> {
  const profile = await exportProfile(db, userId);
  if (profile === null) throw new AppError('NOT_FOUND', 'User not found');
  return (async function* () {
    yield `{"exportedAt":${JSON.stringify(new Date().toISOString())},"profile":${profile}`;
    for (const part of EXPORT_PARTS) {
      yield `,${JSON.stringify(part)}:[`;
      let after: ExportCursor | null = null;
      let first = true;
      for (;;) {
        const rows = await exportPage(db, part, userId, after, pageRows);
        if (rows.length > 0) {
          yield `${first ? '' : ','}${rows.map((r) => r.json).join(',')}`;
          first = false;
        }
        const last = rows.at(-1);
        if (!last || rows.length < pageRows) break;
        after = { key: last.key, id: last.id };
      }
      yield ']';
    }
    yield '}\n';
  })();
}
