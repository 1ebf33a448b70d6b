/**
 * SQL of the access and admin logs' CSV exports (DESIGN §11.6): each log's matches (the list's own
 * conditions, each served by an index ending in `(created_at, id)`) in keyset pages, newest first, each page
 * the rows before the last one's `(created_at, id)`: no OFFSET, however deep.
 * Reads other modules' tables: `access_logs` (the accounts module's: the sign-ins exported) and `users` (the nicknames a row shows).
 */
import type { GetAccessLogsRequest, GetAdminLogsRequest } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryPlanned } from '../../db/client.ts';
import { pageSize } from '../../db/paging.ts';
import { accessLogConditions, adminLogConditions } from './logs.queries.ts';

/** A keyset cursor: a row's id and its exact time as PostgreSQL's text. */
export interface LogCursor {
  id: string;
  at: string;
}

/** A sign-in as the CSV shows it. */
export interface ExportedAccessLog extends LogCursor {
  date: string;
  nickname: string;
  address: string;
  loginType: number;
}

/** An admin action as the CSV shows it. */
export interface ExportedAdminLog extends LogCursor {
  date: string;
  admin: string;
  affected: string | null;
  address: string;
  category: number;
  action: string;
}

/** `where` and, after `after`, the keyset bound, joined with AND. */
function withCursor(where: readonly SQL[], after: LogCursor | null): SQL {
  const all = after
    ? [...where, sql`(l.created_at, l.id) < (${after.at}::timestamptz, ${after.id}::bpchar)`]
    : [...where];
  return sql.join(all, sql` AND `);
}

/** Up to `limit` sign-ins matching `f` after `after` (null: from the newest), newest first. */
export async function findAccessLogsAfter(
  db: DbOrTx,
  f: Omit<GetAccessLogsRequest, 'paging'>,
  after: LogCursor | null,
  limit: number,
): Promise<ExportedAccessLog[]> {
  const match = await accessLogConditions(db, f);
  if (match === null) return [];
  const rows = await queryPlanned<{
    id: string;
    at: string;
    created_at: string | Date;
    nickname: string;
    address: string;
    login_type: number;
  }>(
    db,
    sql`
    SELECT l.id, l.created_at::text AS at, l.created_at, u.nickname, l.address, l.login_type
    FROM (SELECT l.id, l.created_at FROM access_logs l WHERE ${withCursor(match.where, after)}
          ORDER BY l.created_at DESC, l.id DESC LIMIT ${pageSize(limit)}) p
    JOIN access_logs l ON l.id = p.id JOIN users u ON u.id = l.user_id
    ORDER BY p.created_at DESC, p.id DESC`,
  );
  return rows.map((r) => ({
    id: r.id,
    at: r.at,
    date: new Date(r.created_at).toISOString(),
    nickname: r.nickname,
    address: r.address,
    loginType: Number(r.login_type),
  }));
}

/** Up to `limit` admin actions matching `f` after `after` (null: from the newest), newest first. */
export async function findAdminLogsAfter(
  db: DbOrTx,
  f: Omit<GetAdminLogsRequest, 'paging'>,
  after: LogCursor | null,
  limit: number,
): Promise<ExportedAdminLog[]> {
  const where = await adminLogConditions(db, f);
  if (where === null) return [];
  const rows = await queryPlanned<{
    id: string;
    at: string;
    created_at: string | Date;
    admin: string;
    affected: string | null;
    address: string;
    category: number;
    action: string;
  }>(
    db,
    sql`
    SELECT l.id, l.created_at::text AS at, l.created_at, a.nickname AS admin, t.nickname AS affected,
           l.address, l.category, l.action
    FROM (SELECT l.id, l.created_at FROM admin_logs l WHERE ${withCursor(where, after)}
          ORDER BY l.created_at DESC, l.id DESC LIMIT ${pageSize(limit)}) p
    JOIN admin_logs l ON l.id = p.id JOIN users a ON a.id = l.admin_id LEFT JOIN users t ON t.id = l.affected_user_id
    ORDER BY p.created_at DESC, p.id DESC`,
  );
  return rows.map((r) => ({
    id: r.id,
    at: r.at,
    date: new Date(r.created_at).toISOString(),
    admin: r.admin,
    affected: r.affected,
    address: r.address,
    category: Number(r.category),
    action: r.action,
  }));
}
