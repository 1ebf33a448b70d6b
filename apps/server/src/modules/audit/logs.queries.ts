/** SQL of the access and admin logs (SPEC §2 Access Logs and Admin Logs tabs; DESIGN §8). */
import type { AccessLog, AdminLog, GetAccessLogsRequest, GetAdminLogsRequest } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { withinDates } from '../../db/date-range.ts';

/** The id of the account named `nickname` (any case), as SQL for a filter. */
const idOf = (nickname: string) => sql`(SELECT id FROM users WHERE lower(nickname) = lower(${nickname}))`;

/** A page of sign-ins matching `f`, newest first, with the total count of matches. */
export async function findAccessLogs(
  db: DbOrTx,
  f: GetAccessLogsRequest,
): Promise<{ logs: AccessLog[]; total: number }> {
  const where: SQL[] = [sql`true`];
  if (f.user) where.push(sql`l.user_id = ${idOf(f.user)}`);
  if (f.category !== undefined) where.push(sql`l.login_type = ${f.category}`);
  if (f.address) where.push(sql`strpos(l.address, ${f.address}) > 0`);
  where.push(...withinDates(sql`l.created_at`, f.startDate, f.endDate));
  const cond = sql.join(where, sql` AND `);
  const { limit, page } = f.paging;
  const [rows, count] = await Promise.all([
    db.execute<{ id: string; created_at: string | Date; nickname: string; address: string; login_type: number }>(sql`
      SELECT l.id, l.created_at, u.nickname, l.address, l.login_type
      FROM access_logs l JOIN users u ON u.id = l.user_id
      WHERE ${cond}
      ORDER BY l.created_at DESC, l.id DESC
      LIMIT ${limit} OFFSET ${(page - 1) * limit}`),
    db.execute<{ n: string }>(sql`SELECT count(*) AS n FROM access_logs l WHERE ${cond}`),
  ]);
  return {
    total: Number(count.rows[0]?.n ?? 0),
    logs: rows.rows.map((r) => ({
      _id: r.id,
      date: new Date(r.created_at).toISOString(),
      user: { nickname: r.nickname },
      address: r.address,
      loginType: r.login_type,
    })),
  };
}

/** A page of admin actions matching `f`, newest first, with the total count of matches. */
export async function findAdminLogs(db: DbOrTx, f: GetAdminLogsRequest): Promise<{ logs: AdminLog[]; total: number }> {
  const where: SQL[] = [sql`true`];
  if (f.adminUser) where.push(sql`l.admin_id = ${idOf(f.adminUser)}`);
  if (f.affectedUser) where.push(sql`l.affected_user_id = ${idOf(f.affectedUser)}`);
  if (f.category !== undefined) where.push(sql`l.category = ${f.category}`);
  if (f.address) where.push(sql`strpos(l.address, ${f.address}) > 0`);
  where.push(...withinDates(sql`l.created_at`, f.startDate, f.endDate));
  const cond = sql.join(where, sql` AND `);
  const { limit, page } = f.paging;
  const [rows, count] = await Promise.all([
    db.execute<{
      id: string;
      created_at: string | Date;
      admin: string;
      affected: string | null;
      address: string;
      category: number;
      action: string;
    }>(sql`
      SELECT l.id, l.created_at, a.nickname AS admin, t.nickname AS affected, l.address, l.category, l.action
      FROM admin_logs l JOIN users a ON a.id = l.admin_id LEFT JOIN users t ON t.id = l.affected_user_id
      WHERE ${cond}
      ORDER BY l.created_at DESC, l.id DESC
      LIMIT ${limit} OFFSET ${(page - 1) * limit}`),
    db.execute<{ n: string }>(sql`SELECT count(*) AS n FROM admin_logs l WHERE ${cond}`),
  ]);
  return {
    total: Number(count.rows[0]?.n ?? 0),
    logs: rows.rows.map((r) => ({
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
