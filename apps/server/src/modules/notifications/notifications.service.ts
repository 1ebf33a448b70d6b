/**
 * A member's notifications (DESIGN §11.3): the list (their own rows and the broadcasts they see, newest
 * first), marking read, the e-mail choices per kind, writing them in the caller's transaction, and the
 * pruning after 90 days.
 */
import {
  AppError,
  NOTIFICATION_KINDS,
  type Notification,
  type NotificationKind,
  type NotificationSettingsResponse,
  type NotificationsRequest,
  type NotificationsResponse,
  type ReadNotificationsResponse,
} from '@starlight/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { GENERIC_READ, inTransaction } from '../../db/transaction.ts';
import { type ChangePublisher, LiveChanges } from '../../lib/live-changes.ts';
import { type PeriodicJob, startPeriodic, withJobLock } from '../../lib/periodic.ts';
import {
  countNotifications,
  deletePendingNotifications,
  findEmailSettings,
  findMine,
  insertBroadcast,
  insertNotifications,
  listNotifications as listRows,
  markBroadcastsRead,
  markOwnRead,
  mergeEmailSettings,
  type NewBroadcast,
  type NewNotification,
  type NotificationRow,
  pruneNotifications,
  settleNotifications,
  takeNewlyDue,
} from './notifications.queries.ts';

/** The 404 of an id that is neither the member's notification nor a broadcast they see. */
export const NOTIFICATION_NOT_FOUND = 'Notification not found';

/** A row as the wire shows it. */
export function toNotification(row: NotificationRow): Notification {
  return {
    _id: row.id,
    kind: row.kind as NotificationKind,
    title: row.title,
    body: row.body,
    link: row.link,
    createdAt: new Date(row.created_at).toISOString(),
    read: row.read,
  };
}

/**
 * Writes `entries` (one statement for all of them) in the caller's transaction `tx`, and names them in
 * `changes` so their members' sockets get them once it commits, on every replica (DESIGN §11.3).
 */
export async function notify(tx: DbOrTx, entries: readonly NewNotification[], changes: LiveChanges): Promise<void> {
  changes.touchNotifications(await insertNotifications(tx, entries));
}

/** The anchor of the sessions card in Settings, where a security notification links (as its mail does). */
const SESSIONS_PAGE = '/userconfig#sessions';

/**
 * A `security` notification of member `userId` (DESIGN §11.3): `title`, `body` (what happened, when and
 * from where), linking to the sessions in Settings. Its e-mail goes from the users module at once, so it
 * is never mailed again from here (`withMailPending`).
 */
export function securityNotice(userId: string, title: string, body: string): NewNotification {
  return { userId, kind: 'security', title, body, link: SESSIONS_PAGE };
}

/**
 * Withdraws the forge_ready notifications of processes `processIds` that are not yet due (the processes
 * were cancelled before they were ready), in the caller's transaction `tx`: nothing announces what will
 * not happen (DESIGN §11.3).
 */
export async function withdrawForgeReady(tx: DbOrTx, processIds: readonly string[]): Promise<void> {
  await deletePendingNotifications(tx, 'forge_ready', processIds);
}

/**
 * Settles the forge_ready notifications of processes `processIds` just claimed, in the caller's
 * transaction `tx`: read, never mailed, and so not pushed as news when they come due in the same second
 * (DESIGN §11.3).
 */
export async function settleForgeReady(tx: DbOrTx, processIds: readonly string[]): Promise<void> {
  await settleNotifications(tx, 'forge_ready', processIds);
}

/**
 * Writes a broadcast (every member, or every member of `role`; no row per member) in the caller's
 * transaction `tx`, and names it in `changes` so every socket of its members gets it once it commits.
 */
export async function writeBroadcast(tx: DbOrTx, b: NewBroadcast, changes: LiveChanges): Promise<void> {
  changes.touchBroadcast(await insertBroadcast(tx, b));
}

/** `notifications {paging, unreadOnly?}`: a page, newest first, with `total` (of the filter) and `unread`. */
export async function listNotifications(
  db: Db,
  userId: string,
  input: NotificationsRequest,
): Promise<NotificationsResponse> {
  const { limit, page } = input.paging;
  const unreadOnly = input.unreadOnly ?? false;
  return inTransaction(
    db,
    async (tx) => {
      const rows = await listRows(tx, userId, { limit, offset: (page - 1) * limit, unreadOnly });
      const { total, unread } = await countNotifications(tx, userId);
      return { notifications: rows.map(toNotification), total: unreadOnly ? unread : total, unread, message: 'OK' };
    },
    GENERIC_READ,
  );
}

/**
 * `notifications/read {ids?}`: marks `ids` read, or every notification when none. An id that is neither
 * the member's own nor a broadcast they see: 404 `Notification not found` and nothing changes. Broadcasts
 * are read in order: marking one marks the older ones too (one marker per member, no row per broadcast).
 */
export async function markRead(
  db: Db,
  userId: string,
  ids: readonly string[] | undefined,
): Promise<ReadNotificationsResponse> {
  return inTransaction(db, async (tx) => {
    if (!ids) {
      await markOwnRead(tx, userId, null);
      await markBroadcastsRead(tx, userId, null);
    } else {
      const wanted = [...new Set(ids)];
      const found = await findMine(tx, userId, wanted);
      if (found.length < wanted.length) throw new AppError('NOT_FOUND', NOTIFICATION_NOT_FOUND);
      const own = found.filter((f) => !f.broadcast).map((f) => f.id);
      if (own.length > 0) await markOwnRead(tx, userId, own);
      const broadcasts = found.filter((f) => f.broadcast).map((f) => f.id);
      if (broadcasts.length > 0) await markBroadcastsRead(tx, userId, broadcasts);
    }
    const { unread } = await countNotifications(tx, userId);
    return { unread, message: ids ? 'Marked as read' : 'All notifications marked as read' };
  });
}

/**
 * Which kinds go by e-mail when a member never chose: security events only, and those always (their mails
 * go from the users module at once, DESIGN §11.1). `withMailPending` in notifications.queries.ts follows
 * the same rule in SQL.
 */
const EMAIL_DEFAULTS: Readonly<Record<NotificationKind, boolean>> = Object.fromEntries(
  NOTIFICATION_KINDS.map((k) => [k, k === 'security']),
) as Record<NotificationKind, boolean>;

/** The 400 of `notificationSettings {email: {security: false}}`. */
export const SECURITY_MAILS_REQUIRED = 'Security e-mails cannot be turned off';

/** Every kind with its choice: the stored ones over the defaults; security always on. */
function settingsOf(stored: Record<string, boolean>): NotificationSettingsResponse['settings'] {
  const email = { ...EMAIL_DEFAULTS };
  for (const k of NOTIFICATION_KINDS) if (typeof stored[k] === 'boolean') email[k] = stored[k];
  email.security = true;
  return { email };
}

/** `GET notificationSettings`: per kind, whether it also goes by e-mail. */
export async function getSettings(db: Db, userId: string): Promise<NotificationSettingsResponse> {
  return { settings: settingsOf(await findEmailSettings(db, userId)), message: 'OK' };
}

/**
 * `POST notificationSettings {email}`: the kinds named change, the others keep their choice; from then on,
 * a notification of a chosen kind also goes by e-mail to a confirmed address (DESIGN §11.3). `security:
 * false`: 400 `Security e-mails cannot be turned off` and nothing changes (`security: true` changes nothing).
 */
export async function setSettings(
  db: Db,
  userId: string,
  email: Partial<Record<NotificationKind, boolean>>,
): Promise<NotificationSettingsResponse> {
  const { security, ...choices } = email;
  if (security === false) throw new AppError('VALIDATION', SECURITY_MAILS_REQUIRED);
  const stored = await mergeEmailSettings(db, userId, choices as Record<string, boolean>);
  return { settings: settingsOf(stored), message: 'Notification settings saved' };
}

/** How long a notification is kept (DESIGN §11.3): 90 days. */
export const KEEP_MS = 90 * 24 * 60 * 60 * 1000;

/**
 * Starts the job that deletes notifications and broadcasts older than 90 days, hourly, on one replica at a
 * time (`withJobLock`); stop it on close.
 */
export function startNotificationPruning(db: Db, log: FastifyBaseLogger, everyMs = 60 * 60 * 1000): PeriodicJob {
  return startPeriodic({
    name: 'prune-notifications',
    everyMs,
    log,
    tick: async () => {
      await withJobLock(db, 'prune-notifications', (tx: Tx) => pruneNotifications(tx, new Date(Date.now() - KEEP_MS)));
    },
  });
}

/** The cursor and lock name of the push of rows that became due. */
const DUE_PUSH = 'push-due-notifications';

/**
 * Starts the job that pushes live the notifications written for later (forge_ready) once they are due:
 * every `everyMs` (1 s), on one replica at a time (`withJobLock`), it reads the rows that became due since
 * its cursor (a range of their time), moves the cursor in the same transaction, and after the commit names
 * them on `publisher`, so every replica pushes them to their members' sockets. Stop it on close.
 */
export function startDueNotificationsPush(
  db: Db,
  publisher: ChangePublisher,
  log: FastifyBaseLogger,
  everyMs = 1000,
): PeriodicJob {
  return startPeriodic({
    name: DUE_PUSH,
    everyMs,
    log,
    tick: async () => {
      const ids = await withJobLock(db, DUE_PUSH, (tx: Tx) => takeNewlyDue(tx, DUE_PUSH));
      if (!ids || ids.length === 0) return;
      const changes = new LiveChanges();
      changes.touchNotifications(ids);
      publisher.add(changes);
    },
  });
}
