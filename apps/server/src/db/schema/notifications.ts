/** Members' notifications and the admin's broadcasts (DESIGN §11.3), owned by the notifications module. */
import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { objectId } from './columns.ts';

/**
 * A member's own notifications, written in the transaction of what they announce and pruned after 90 days.
 * No foreign key to `users`: rows are written in the hot paths (a transfer batch), where the key's check
 * would lock each recipient's `users` row once more; the writer names an account it has just read. The
 * ids sort by time (`newObjectId`), so the pruning deletes a range of the primary key. `mail_pending`: the
 * row also goes by e-mail and has not yet (set by the INSERT itself from the member's choice, cleared by
 * the mail job when it takes the row).
 */
export const notifications = pgTable(
  'notifications',
  {
    id: objectId('id').primaryKey(),
    userId: objectId('user_id').notNull(),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    link: text('link'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
    mailPending: boolean('mail_pending').notNull().default(false),
  },
  (t) => [
    // The member's list, newest first, and their unread count. Migration 0052 adds INCLUDE (read_at) by hand
    // (drizzle has no INCLUDE), so the count reads the index, not each row. Deliberately the only full index
    // beside the key: a transfer batch writes a row per recipient, and a partial index of the unread rows
    // and a BRIN of the creation time each cost the transfer path more than they save.
    index('notifications_user_newest').on(t.userId, t.createdAt, t.id),
    // The mail job's queue, oldest first: only the rows still to mail, so a row that goes to the app alone
    // (most of them) adds no entry.
    index('notifications_mail_due').on(t.createdAt).where(sql`${t.mailPending}`),
    // The rows written for later (forge_ready, due at the process's ready time), read by the push of what
    // became due as a range of their time: no entry for the other kinds.
    index('notifications_deferred_due').on(t.createdAt).where(sql`${t.kind} = 'forge_ready'`),
  ],
);

/**
 * Where each job that reads notifications by time has got to (`until`: every row created at or before it
 * is done), so the push of rows that became due reads only the new ones.
 */
export const notificationCursors = pgTable('notification_cursors', {
  name: text('name').primaryKey(),
  until: timestamp('until', { withTimezone: true }).notNull(),
});

/**
 * Which kinds a member also gets by e-mail (`{<kind>: boolean}`; a kind not named keeps its default). The
 * members who chose the broadcasts' kinds are indexed apart: the broadcast mail job walks them by id.
 */
export const notificationSettings = pgTable(
  'notification_settings',
  {
    userId: objectId('user_id').primaryKey(),
    email: jsonb('email').notNull().default(sql`'{}'::jsonb`),
  },
  (t) => [
    index('notification_settings_mail_broadcast').on(t.userId).where(sql`(${t.email} ->> 'broadcast')::boolean`),
    index('notification_settings_mail_alert_level').on(t.userId).where(sql`(${t.email} ->> 'alert_level')::boolean`),
  ],
);

/**
 * Notifications to every member (`role` null) or every member of a role: the admin's broadcasts and the
 * alert level's changes (`kind`). One row each, read beside the member's own rows: none per member.
 * `mail_pending`: members who chose the kind by e-mail are still to be mailed; the mail job walks them in
 * the order of their ids, and `mailed_until` is the last id it has taken (null: none yet), moved in the
 * transaction that takes the next ones, so a restart goes on after it and mails nobody twice.
 */
export const broadcasts = pgTable(
  'broadcasts',
  {
    id: objectId('id').primaryKey(),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    link: text('link'),
    role: text('role'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The admin who sent it. */
    createdBy: objectId('created_by').notNull(),
    mailPending: boolean('mail_pending').notNull().default(false),
    mailedUntil: objectId('mailed_until'),
  },
  (t) => [
    index('broadcasts_created').on(t.createdAt),
    // The broadcast mail job's queue: only the broadcasts still being mailed.
    index('broadcasts_mail_due').on(t.createdAt).where(sql`${t.mailPending}`),
    // The admin console's list of broadcasts sent, newest first.
    index('broadcasts_sent').on(t.createdAt, t.id).where(sql`kind = 'broadcast'`),
  ],
);

/** Per member, the broadcasts read: every one created at or before `broadcasts_read_until`. */
export const notificationReads = pgTable('notification_reads', {
  userId: objectId('user_id').primaryKey(),
  broadcastsReadUntil: timestamp('broadcasts_read_until', { withTimezone: true }).notNull(),
});
