/**
 * SQL of notifications (DESIGN §11.3): a member's own rows, the broadcasts read beside them (none written
 * per member), the read marks, the e-mail settings, the rows and broadcasts due to go by e-mail and the
 * pruning.
 * Reads other modules' tables: `users` (the accounts module's: a member's role and sign-up time choose the
 * broadcasts they see; their confirmed e-mail address receives the notifications they chose to get by
 * e-mail).
 */
import type { NotificationKind } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryPlanned } from '../../db/client.ts';
import { pgArray } from '../../db/pg-array.ts';
import { newObjectId } from '../../lib/ids.ts';

/** A notification to write: whom, what kind, its words and link (a path of the web, or null). */
export interface NewNotification {
  userId: string;
  kind: NotificationKind;
  title: string;
  body: string;
  link: string | null;
  /** Its id (default a new one): a forge_ready row takes its process's id, so a cancel finds it. */
  id?: string;
  /**
   * Seconds after the transaction's `now()` it becomes due (default 0). A row made for later is seen by
   * no read (list, count, marks, mails) before then, and is pushed live by `startDueNotificationsPush`.
   */
  dueInSeconds?: number;
}

/** A notification as it is read: `read` from its own mark, or for a broadcast from the member's marker. */
export interface NotificationRow extends Record<string, unknown> {
  id: string;
  user_id: string | null;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  created_at: Date | string;
  read: boolean;
}

/** `rows` as one `SELECT` of unnested arrays (the same SQL text for any number), with their new ids. */
function notificationRows(rows: readonly NewNotification[]): { ids: string[]; select: SQL } {
  const ids = rows.map((r) => r.id ?? newObjectId());
  const col = (f: (r: NewNotification) => string | number | null) => pgArray(rows.map(f));
  const select = sql`SELECT v.id, v.user_id, v.kind, v.title, v.body, v.link, now() + make_interval(secs => v.secs)
      FROM unnest(${pgArray(ids)}::bpchar[], ${col((r) => r.userId)}::bpchar[],
      ${col((r) => r.kind)}::text[], ${col((r) => r.title)}::text[], ${col((r) => r.body)}::text[],
      ${col((r) => r.link)}::text[], ${col((r) => r.dueInSeconds ?? 0)}::float8[])
      AS v(id, user_id, kind, title, body, link, secs)`;
  return { ids, select };
}

const COLUMNS = sql`(id, user_id, kind, title, body, link, created_at, mail_pending)`;

/** The rows a read sees: those due by now (DESIGN §11.3: a forge_ready row is written for its ready time). */
const DUE = sql`created_at <= now()`;

/**
 * The rows of `select` (the columns of `notificationRows`) with `mail_pending` (DESIGN §11.3): the member
 * chose to get the kind by e-mail too and has a confirmed address. No kind goes by e-mail unless chosen
 * (security does by default, but its mails go from the users module at once: never through this path).
 * One primary-key lookup of `notification_settings` per row; `users` is looked up only for a member who
 * chose the kind (the CASE evaluates its THEN only then), so the rows of the many who did not choose cost
 * one lookup of a small table.
 */
function withMailPending(select: SQL, where: SQL = sql``): SQL {
  return sql`SELECT v.id, v.user_id, v.kind, v.title, v.body, v.link, v.created_at,
      CASE WHEN v.kind <> 'security'
                AND (SELECT (s.email ->> v.kind)::boolean FROM notification_settings s WHERE s.user_id = v.user_id)
           THEN EXISTS (SELECT FROM users u
                         WHERE u.id = v.user_id AND u.email IS NOT NULL AND u.is_email_verified AND u.is_active)
           ELSE false END
    FROM (${select}) v (id, user_id, kind, title, body, link, created_at)${where}`;
}

/** Writes `rows` in one statement; returns their ids, in order. */
export async function insertNotifications(db: DbOrTx, rows: readonly NewNotification[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const { ids, select } = notificationRows(rows);
  await db.execute(sql`INSERT INTO notifications ${COLUMNS} ${withMailPending(select)}`);
  return ids;
}

/**
 * `rows` written by a ledger posting's own statement (the ledger's `PostAlong`: one round trip for a whole
 * batch), only when the posting is: `ctes` is the CTE `notified`, `columns` its column `notified` (how
 * many). With the new ids, in order.
 */
export function insertNotificationsAlong(rows: readonly NewNotification[]): { ids: string[]; ctes: SQL; columns: SQL } {
  const { ids, select } = notificationRows(rows);
  return {
    ids,
    ctes: sql`notified AS (
      INSERT INTO notifications ${COLUMNS} ${withMailPending(select, sql` WHERE (SELECT ok FROM ok)`)} RETURNING 1)`,
    columns: sql`(SELECT count(*) FROM notified)::int AS notified`,
  };
}

/** A broadcast to write (`role` null: every member). */
export interface NewBroadcast {
  kind: 'broadcast' | 'alert_level';
  title: string;
  body: string;
  link: string | null;
  role: string | null;
  createdBy: string;
}

/**
 * The members who chose a broadcast kind by e-mail (`notification_settings s`), in the words of the
 * partial indexes `notification_settings_mail_broadcast` and `_alert_level`, so the planner uses them.
 */
const CHOSE_BY_MAIL: Readonly<Record<NewBroadcast['kind'], SQL>> = {
  broadcast: sql`(s.email ->> 'broadcast')::boolean`,
  alert_level: sql`(s.email ->> 'alert_level')::boolean`,
};

/**
 * Writes one broadcast; returns its id. `mail_pending` when some member chose its kind by e-mail (DESIGN
 * §11.3): the mail job then walks them (`takeBroadcastMails`).
 */
export async function insertBroadcast(db: DbOrTx, b: NewBroadcast): Promise<string> {
  const id = newObjectId();
  await db.execute(sql`INSERT INTO broadcasts (id, kind, title, body, link, role, created_by, mail_pending)
    VALUES (${id}, ${b.kind}, ${b.title}, ${b.body}, ${b.link}, ${b.role}, ${b.createdBy},
            EXISTS (SELECT FROM notification_settings s WHERE ${CHOSE_BY_MAIL[b.kind]}))`);
  return id;
}

/**
 * The broadcasts member `userId` sees, as a FROM item `b` with their column `read`: to everyone or to the
 * member's role, sent after the member signed up; read when at or before the member's marker.
 */
function visibleBroadcasts(userId: string): SQL {
  return sql`(SELECT b.id, NULL::bpchar AS user_id, b.kind, b.title, b.body, b.link, b.created_at,
                     b.created_at <= coalesce(r.broadcasts_read_until, '-infinity') AS read
                FROM users u
                JOIN broadcasts b ON b.created_at > u.created_at AND (b.role IS NULL OR b.role = u.role)
                LEFT JOIN notification_reads r ON r.user_id = u.id
               WHERE u.id = ${userId})`;
}

/** One page of member `userId`'s notifications and the broadcasts they see, newest first. */
export async function listNotifications(
  db: DbOrTx,
  userId: string,
  opts: { limit: number; offset: number; unreadOnly: boolean },
): Promise<NotificationRow[]> {
  const upTo = opts.offset + opts.limit;
  const unreadOwn = opts.unreadOnly ? sql` AND n.read_at IS NULL` : sql``;
  const unreadB = opts.unreadOnly ? sql` WHERE NOT b.read` : sql``;
  return queryPlanned<NotificationRow>(
    db,
    sql`SELECT * FROM (
      (SELECT n.id, n.user_id, n.kind, n.title, n.body, n.link, n.created_at, n.read_at IS NOT NULL AS read
         FROM notifications n WHERE n.user_id = ${userId} AND n.${DUE}${unreadOwn}
        ORDER BY n.created_at DESC, n.id DESC LIMIT ${upTo})
      UNION ALL
      (SELECT b.* FROM ${visibleBroadcasts(userId)} b${unreadB} ORDER BY b.created_at DESC, b.id DESC LIMIT ${upTo})
    ) x ORDER BY x.created_at DESC, x.id DESC LIMIT ${opts.limit} OFFSET ${opts.offset}`,
  );
}

/** How many notifications member `userId` has (their own and the broadcasts they see), and how many unread. */
export async function countNotifications(db: DbOrTx, userId: string): Promise<{ total: number; unread: number }> {
  const [row] = await queryPlanned<{ total: number; unread: number }>(
    db,
    sql`SELECT (SELECT count(*) FROM notifications WHERE user_id = ${userId} AND ${DUE})::int
               + (SELECT count(*) FROM ${visibleBroadcasts(userId)} b)::int AS total,
               (SELECT count(*) FROM notifications WHERE user_id = ${userId} AND ${DUE} AND read_at IS NULL)::int
               + (SELECT count(*) FROM ${visibleBroadcasts(userId)} b WHERE NOT b.read)::int AS unread`,
  );
  return { total: row?.total ?? 0, unread: row?.unread ?? 0 };
}

/** Of `ids`, the member's own notifications and the broadcasts they see (`broadcast` true). */
export async function findMine(
  db: DbOrTx,
  userId: string,
  ids: readonly string[],
): Promise<Array<{ id: string; broadcast: boolean }>> {
  const res = await db.execute<{ id: string; broadcast: boolean }>(
    sql`SELECT id, false AS broadcast FROM notifications
         WHERE user_id = ${userId} AND ${DUE} AND id = ANY(${pgArray(ids)}::bpchar[])
        UNION ALL
        SELECT b.id, true FROM ${visibleBroadcasts(userId)} b WHERE b.id = ANY(${pgArray(ids)}::bpchar[])`,
  );
  return res.rows;
}

/** Marks the member's own notifications `ids` read (all of them when `ids` is null). */
export async function markOwnRead(db: DbOrTx, userId: string, ids: readonly string[] | null): Promise<void> {
  const only = ids ? sql` AND id = ANY(${pgArray(ids)}::bpchar[])` : sql``;
  await db.execute(
    sql`UPDATE notifications SET read_at = now() WHERE user_id = ${userId} AND ${DUE} AND read_at IS NULL${only}`,
  );
}

/**
 * Moves the member's broadcasts marker to the newest of broadcasts `ids` (to now when null: every broadcast
 * so far read), never back.
 */
export async function markBroadcastsRead(db: DbOrTx, userId: string, ids: readonly string[] | null): Promise<void> {
  const at = ids ? sql`(SELECT max(created_at) FROM broadcasts WHERE id = ANY(${pgArray(ids)}::bpchar[]))` : sql`now()`;
  await db.execute(sql`INSERT INTO notification_reads AS r (user_id, broadcasts_read_until)
    SELECT ${userId}, at FROM (SELECT ${at} AS at) x WHERE at IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE
      SET broadcasts_read_until = greatest(r.broadcasts_read_until, EXCLUDED.broadcasts_read_until)`);
}

/** Notifications `ids` as they are now (unread: just written), for the live push; only those due by now. */
export async function findNotifications(db: DbOrTx, ids: readonly string[]): Promise<NotificationRow[]> {
  const res = await db.execute<NotificationRow>(
    sql`SELECT id, user_id, kind, title, body, link, created_at, read_at IS NOT NULL AS read
          FROM notifications WHERE id = ANY(${pgArray(ids)}::bpchar[]) AND ${DUE}`,
  );
  return res.rows;
}

/**
 * Marks the notifications `ids` of `kind` read and takes them off the mail queue, in the caller's
 * transaction (a forge_ready row of a process just claimed: the member has acted on it).
 */
export async function settleNotifications(db: DbOrTx, kind: NotificationKind, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(
    sql`UPDATE notifications SET read_at = coalesce(read_at, now()), mail_pending = false
         WHERE id = ANY(${pgArray(ids)}::bpchar[]) AND kind = ${kind}
           AND (read_at IS NULL OR mail_pending)`,
  );
}

/**
 * Withdraws the notifications `ids` of `kind` not yet due (a forge_ready row of a process cancelled before
 * it was ready), in the caller's transaction; returns how many.
 */
export async function deletePendingNotifications(
  db: DbOrTx,
  kind: NotificationKind,
  ids: readonly string[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const res = await db.execute(
    sql`DELETE FROM notifications
         WHERE id = ANY(${pgArray(ids)}::bpchar[]) AND kind = ${kind} AND created_at > now()`,
  );
  return res.rowCount ?? 0;
}

/**
 * The ids of the rows made for later (forge_ready, the one kind written with `dueInSeconds`) that became
 * due since the cursor `name` (created after its `until`, at or before now), and moves the cursor to now
 * (made at now the first time: nothing before it is pushed). The RETURNING's subquery reads the cursor as
 * the statement found it. An index range of `notifications_deferred_due`, never a scan. Run under the
 * job's lock.
 */
export async function takeNewlyDue(db: DbOrTx, name: string): Promise<string[]> {
  const res = await db.execute<{ id: string }>(
    sql`WITH cur AS (
          INSERT INTO notification_cursors AS c (name, until) VALUES (${name}, now())
          ON CONFLICT (name) DO UPDATE SET until = now()
          RETURNING (SELECT c0.until FROM notification_cursors c0 WHERE c0.name = ${name}) AS since)
        SELECT n.id FROM notifications n, cur
         WHERE n.kind = 'forge_ready' AND cur.since IS NOT NULL
           AND n.created_at > cur.since AND n.created_at <= now()`,
  );
  return res.rows.map((r) => r.id);
}

/** Broadcasts `ids`, with their role, for the live push. */
export async function findBroadcasts(
  db: DbOrTx,
  ids: readonly string[],
): Promise<Array<NotificationRow & { role: string | null }>> {
  const res = await db.execute<NotificationRow & { role: string | null }>(
    sql`SELECT id, NULL AS user_id, kind, title, body, link, created_at, false AS read, role
          FROM broadcasts WHERE id = ANY(${pgArray(ids)}::bpchar[])`,
  );
  return res.rows;
}

/** The member's stored e-mail choices (`{}` when none). */
export async function findEmailSettings(db: DbOrTx, userId: string): Promise<Record<string, boolean>> {
  const res = await db.execute<{ email: Record<string, boolean> }>(
    sql`SELECT email FROM notification_settings WHERE user_id = ${userId}`,
  );
  return res.rows[0]?.email ?? {};
}

/** Merges `email` into the member's stored choices; returns them all. */
export async function mergeEmailSettings(
  db: DbOrTx,
  userId: string,
  email: Record<string, boolean>,
): Promise<Record<string, boolean>> {
  const res = await db.execute<{ email: Record<string, boolean> }>(
    sql`INSERT INTO notification_settings AS s (user_id, email) VALUES (${userId}, ${JSON.stringify(email)}::jsonb)
        ON CONFLICT (user_id) DO UPDATE SET email = s.email || EXCLUDED.email RETURNING email`,
  );
  return res.rows[0]?.email ?? email;
}

/** A notification taken to go by e-mail, with its member's nickname and confirmed address (null: none now). */
export interface DueMailRow extends Record<string, unknown> {
  user_id: string;
  title: string;
  body: string;
  link: string | null;
  nickname: string | null;
  email: string | null;
}

/**
 * Takes up to `limit` notifications due by e-mail (`mail_pending` and created by now: some are made for
 * later), oldest first, skipping rows another transaction holds, and clears their flag in the caller's
 * transaction `tx`, so each is taken once. Found by the partial index `notifications_mail_due`; per member,
 * oldest first.
 */
export async function takeDueMails(tx: DbOrTx, limit: number): Promise<DueMailRow[]> {
  const res = await tx.execute<DueMailRow>(
    sql`WITH due AS (
          SELECT id FROM notifications WHERE mail_pending AND created_at <= now()
           ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED),
        taken AS (
          UPDATE notifications n SET mail_pending = false FROM due WHERE n.id = due.id
          RETURNING n.id, n.user_id, n.kind, n.title, n.body, n.link, n.created_at)
        SELECT t.user_id, t.title, t.body, t.link, u.nickname,
               CASE WHEN u.is_email_verified AND u.is_active THEN u.email END AS email
          FROM taken t LEFT JOIN users u ON u.id = t.user_id
         ORDER BY t.user_id, t.created_at, t.id`,
  );
  return res.rows;
}

/**
 * Takes the next page of a broadcast's mails (DESIGN §11.3) in the caller's transaction `tx`, which holds
 * the job's lock: the oldest broadcast still `mail_pending` (skipping one another transaction holds), and
 * up to `limit` of the members who chose its kind by e-mail, in id order after its `mailed_until`. Moves
 * `mailed_until` past them (and clears `mail_pending` on the last page) in the same transaction, so a page
 * is taken once, even after a crash. Returns one row per member of the page whom the broadcast reaches
 * (`email` null when it does not: not of its role, signed up after it, no confirmed address, inactive),
 * with the broadcast's words; null when no broadcast is due.
 */
export async function takeBroadcastMails(tx: DbOrTx, limit: number): Promise<DueMailRow[] | null> {
  const due = await tx.execute<{ id: string; kind: NewBroadcast['kind']; mailed_until: string | null }>(
    sql`SELECT id, kind, mailed_until FROM broadcasts WHERE mail_pending AND created_at <= now()
         ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
  );
  const b = due.rows[0];
  if (!b) return null;
  const page = await tx.execute<DueMailRow>(
    sql`WITH page AS (
          SELECT s.user_id FROM notification_settings s
           WHERE ${CHOSE_BY_MAIL[b.kind] ?? sql`false`} AND s.user_id > ${b.mailed_until ?? ''}
           ORDER BY s.user_id LIMIT ${limit})
        SELECT p.user_id, b.title, b.body, b.link, u.nickname,
               CASE WHEN u.is_email_verified AND u.is_active AND u.created_at < b.created_at
                         AND (b.role IS NULL OR u.role = b.role) THEN u.email END AS email
          FROM page p JOIN broadcasts b ON b.id = ${b.id} LEFT JOIN users u ON u.id = p.user_id
         ORDER BY p.user_id`,
  );
  const last = page.rows.at(-1)?.user_id ?? b.mailed_until;
  await tx.execute(
    sql`UPDATE broadcasts SET mailed_until = ${last}, mail_pending = ${page.rows.length === limit}
         WHERE id = ${b.id}`,
  );
  return page.rows;
}

/**
 * Deletes notifications and broadcasts made before `before`; returns how many of each. A member's rows are
 * found by their ids (which start with their creation's seconds, `newObjectId`): a range of the key.
 */
export async function pruneNotifications(db: DbOrTx, before: Date): Promise<{ own: number; broadcasts: number }> {
  const at = before.toISOString();
  const idBefore = Math.floor(before.getTime() / 1000)
    .toString(16)
    .padStart(8, '0')
    .padEnd(24, '0');
  const own = await db.execute(
    sql`DELETE FROM notifications WHERE id < ${idBefore} AND created_at < ${at}::timestamptz`,
  );
  const b = await db.execute(sql`DELETE FROM broadcasts WHERE created_at < ${at}::timestamptz`);
  return { own: own.rowCount ?? 0, broadcasts: b.rowCount ?? 0 };
}
