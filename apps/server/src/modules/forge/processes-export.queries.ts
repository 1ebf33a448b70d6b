/**
 * SQL of the Forge Process Logs' CSV export (DESIGN §11.6): the processes matching the list's filters
 * (`processWhere`, each served by an index in the list's date order) in keyset pages, newest first, each
 * page the rows before the last one's `(created_at, id)`: no OFFSET, however deep.
 * Reads other modules' tables: `currencies` (tickers and precisions shown) and `users` (the nickname a process shows).
 */
import type { ForgeProcess } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { type DbOrTx, queryPlanned } from '../../db/client.ts';
import { pageSize } from '../../db/paging.ts';
import {
  PROCESS_COLUMNS,
  type ProcessQuery,
  type ProcessRow,
  processWhere,
  toProcessDto,
} from './processes.queries.ts';

/** A process as the CSV shows it: the wire's shape, its currencies' tickers, and `at` (the cursor's time). */
export type ExportedProcess = ForgeProcess & { id: string; at: string; inputTicker: string; outputTicker: string };

/** Up to `limit` processes matching `q` after `after` (null: from the newest), newest first. */
export async function findProcessesAfter(
  db: DbOrTx,
  q: Omit<ProcessQuery, 'limit' | 'page'>,
  after: Pick<ExportedProcess, 'id' | 'at'> | null,
  limit: number,
): Promise<ExportedProcess[]> {
  const where = await processWhere(db, q);
  if (where === null) return [];
  const cursor = after ? sql` AND (p.created_at, p.id) < (${after.at}::timestamptz, ${after.id}::bpchar)` : sql``;
  const rows = await queryPlanned<
    ProcessRow & { nickname: string; at: string; input_ticker: string; output_ticker: string }
  >(
    db,
    sql`
    SELECT ${PROCESS_COLUMNS}, p.created_at::text AS at, u.nickname, ci.ticker AS input_ticker,
           co.ticker AS output_ticker
    FROM (SELECT p.id, p.created_at FROM forge_processes p WHERE ${where.cond}${cursor}
          ORDER BY p.created_at DESC, p.id DESC LIMIT ${pageSize(limit)}) page
    JOIN forge_processes p ON p.id = page.id
    JOIN users u ON u.id = p.user_id
    JOIN currencies ci ON ci.currency_id = p.input_currency_id
    JOIN currencies co ON co.currency_id = p.output_currency_id
    ORDER BY page.created_at DESC, page.id DESC`,
  );
  return rows.map((r) => ({
    ...toProcessDto(r, r.nickname),
    id: r.id,
    at: r.at,
    inputTicker: r.input_ticker,
    outputTicker: r.output_ticker,
  }));
}
