/**
 * SQL of the access and admin logs (SPEC §2 Access Logs and Admin Logs tabs; DESIGN §8), fast at any
 * size: each filter has an index ending in `(created_at, id)`, the list's order (newest
 * first, ties by id), so a page reads its rows in order from one index range; the page's ids are found
 * first (an index-only scan where the filter's index covers it) and only those rows are read whole, so a
 * deep page skips index entries, not rows; the total is counted up to a bound (`cappedTotal`), but one
 * member's whole access log's, which is kept on write (`access_log_counts`, `memberSignIns`); the
 * whole table's, when its estimate passes the bound, is not counted (`wholeTableTotal`). A whole list's page
 * (no filter: one range of the `created_at` index whatever the page) runs with its generic plan
 * (`readWholeListPage`), which PostgreSQL otherwise made again on every call, its OFFSET a parameter.
 * Indexes (migration 0019_list_indexes): access_logs (created_at, id), (user_id, created_at, id),
 * (login_type, created_at, id), (address COLLATE "C", created_at, id); admin_logs the same by
 * created_at, admin, affected user, category and address.
 * Reads other modules' tables: `access_logs` (the accounts module's: sign-ins are written where they happen, the log is read here), `access_log_counts` (the accounts module's: kept by a trigger on `access_logs`, read here for one member's total) and `users` (the nicknames a row shows and a filter names), joined in the page's one statement.
 */
import type { AccessLog, AdminLog, GetAccessLogsRequest, GetAdminLogsRequest } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryPlanned } from '../../db/client.ts';
import { withinDates } from '../../db/date-range.ts';
import { idOfNickname, startsWith } from '../../db/lists.ts';
import { type CappedTotal, cappedTotal, pageSize, readWholeListPage, wholeTableTotal } from '../../db/paging.ts';

const NONE = { total: 0, totalCapped: false } as const;

/**
 * The id of the member named `nickname` (any case) and their number of sign-ins, kept on write in
 * `access_log_counts` (migration 0039), or null when no one has that nickname.
 */
async function memberSignIns(db: DbOrTx, nickname: string): Promise<{ id: string; signIns: number } | null> {
  const [row] = await queryPlanned<{ id: string; n: string | null }>(
    db,
    sql`SELECT u.id, c.n FROM users u LEFT JOIN access_log_counts c ON c.user_id = u.id
        WHERE lower(u.nickname) = lower(${nickname}::text)`,
  );
  return row ? { id: row.id, signIns: Number(row.n ?? 0) } : null;
}

/**
 * The conditions on `l` (access_logs) of the filters `f`, `true` first, and the member's kept count of
 * sign-ins when `user` names one; null when `user` names no one (nothing matches).
 */
export async function accessLogConditions(
  db: DbOrTx,
  f: Omit<GetAccessLogsRequest, 'paging'>,
): Promise<{ where: SQL[]; kept: CappedTotal | null } | null> {
  const where: SQL[] = [sql`true`];
  let kept: CappedTotal | null = null;
  if (f.user) {
    const member = await memberSignIns(db, f.user);
    if (member === null) return null;
    where.push(sql`l.user_id = ${member.id}`);
    kept = { total: member.signIns, totalCapped: false };
  }
  if (f.category !== undefined) where.push(sql`l.login_type = ${f.category}`);
  if (f.address) where.push(startsWith(sql`l.address`, f.address));
  where.push(...withinDates(sql`l.created_at`, f.startDate, f.endDate));
  return { where, kept };
}

/**
 * A page of sign-ins matching `f`, newest first, with the total of matches (`totalCapped`: more match).
 * `user` is a nickname (any case); `address` matches addresses that start with it.
 */
export async function findAccessLogs(
  db: DbOrTx,
  f: GetAccessLogsRequest,
): Promise<{ logs: AccessLog[]; total: number; totalCapped: boolean }> {
  const match = await accessLogConditions(db, f);
  if (match === null) return { logs: [], ...NONE };
  const { where } = match;
  // One member's whole log: their kept count is the total.
  const kept: CappedTotal | null = where.length === 2 ? match.kept : null;
  const cond = sql.join(where, sql` AND `);
  const { limit, page } = f.paging;
  const offset = (page - 1) * limit;
  const read = (q: DbOrTx, size: SQL | number, from: SQL | number) =>
    queryPlanned<{ id: string; created_at: string | Date; nickname: string; address: string; login_type: number }>(
      q,
      sql`
      SELECT l.id, l.created_at, u.nickname, l.address, l.login_type
      FROM (SELECT l.id, l.created_at FROM access_logs l WHERE ${cond}
            ORDER BY l.created_at DESC, l.id DESC LIMIT ${size} OFFSET ${from}) p
      JOIN access_logs l ON l.id = p.id JOIN users u ON u.id = l.user_id
      ORDER BY p.created_at DESC, p.id DESC`,
    );
  const [rows, count] = await Promise.all([
    where.length === 1
      ? readWholeListPage(db, offset, (q, from) => read(q, pageSize(limit), from))
      : read(db, limit, offset),
    kept ??
      (where.length === 1
        ? wholeTableTotal(db, 'access_logs', offset)
        : cappedTotal(db, sql`access_logs l WHERE ${cond}`, offset)),
  ]);
  return {
    ...count,
    logs: rows.map((r) => ({
      _id: r.id,
      date: new Date(r.created_at).toISOString(),
      user: { nickname: r.nickname },
      address: r.address,
      loginType: r.login_type,
    })),
  };
}

/** The conditions on `l` (admin_logs) of the filters `f`, `true` first; null when a nickname names no one. */
export async function adminLogConditions(db: DbOrTx, f: Omit<GetAdminLogsRequest, 'paging'>): Promise<SQL[] | null> {
  const where: SQL[] = [sql`true`];
  for (const [nickname, column] of [
    [f.adminUser, sql`l.admin_id`],
    [f.affectedUser, sql`l.affected_user_id`],
  ] as const) {
    if (!nickname) continue;
    const id = await idOfNickname(db, nickname);
    if (id === null) return null;
    where.push(sql`${column} = ${id}`);
  }
  if (f.category !== undefined) where.push(sql`l.category = ${f.category}`);
  if (f.address) where.push(startsWith(sql`l.address`, f.address));
  where.push(...withinDates(sql`l.created_at`, f.startDate, f.endDate));
  return where;
}

/**
 * A page of admin actions matching `f`, newest first, with the total of matches (`totalCapped`: more
 * match). `adminUser` and `affectedUser` are nicknames (any case); `address` matches addresses that
 * start with it.
 */
export async function findAdminLogs(
  db: DbOrTx,
  f: GetAdminLogsRequest,
): Promise<{ logs: AdminLog[]; total: number; totalCapped: boolean }> {
  const where = await adminLogConditions(db, f);
  if (where === null) return { logs: [], ...NONE };
  const cond = sql.join(where, sql` AND `);
  const { limit, page } = f.paging;
  const offset = (page - 1) * limit;
  const read = (q: DbOrTx, size: SQL | number, from: SQL | number) =>
    queryPlanned<{
      id: string;
      created_at: string | Date;
      admin: string;
      affected: string | null;
      address: string;
      category: number;
      action: string;
    }>(
      q,
      sql`
      SELECT l.id, l.created_at, a.nickname AS admin, t.nickname AS affected, l.address, l.category, l.action
      FROM (SELECT l.id, l.created_at FROM admin_logs l WHERE ${cond}
            ORDER BY l.created_at DESC, l.id DESC LIMIT ${size} OFFSET ${from}) p
      JOIN admin_logs l ON l.id = p.id JOIN users a ON a.id = l.admin_id LEFT JOIN users t ON t.id = l.affected_user_id
      ORDER BY p.created_at DESC, p.id DESC`,
    );
  const [rows, count] = await Promise.all([
    where.length === 1
      ? readWholeListPage(db, offset, (q, from) => read(q, pageSize(limit), from))
      : read(db, limit, offset),
    where.length === 1
      ? wholeTableTotal(db, 'admin_logs', offset)
      : cappedTotal(db, sql`admin_logs l WHERE ${cond}`, offset),
  ]);
  return {
    ...count,
    logs: rows.map((r) => ({
      _id: r.id,
      date: new Date(r.created_at).toISOString(),
      adminUser: { nickname: r.admin },
      affectedUser: r.affected === null ? null : { nickname: r.affected },
      address: r.address,
      category: r.category,
      action: r.action,
    })),
  };
}
