/**
 * A member's notifications and the admin broadcast (DESIGN §11.3): the list (newest first, paged, unread
 * only), marking read, which kinds also go by e-mail, and `POST /api/audit/broadcast`.
 */
import { z } from 'zod';
import { ROLES } from '../tables.ts';
import { objectId, paging } from './common.ts';

/** What a notification announces (DESIGN §11.3 Kinds). */
export const NOTIFICATION_KINDS = [
  'transfer_received',
  'order_filled',
  'forge_ready',
  'checkout_completed',
  'checkout_refunded',
  'settlement_settled',
  'items_received',
  'alert_level',
  'broadcast',
  'security',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Longest title and body a notification carries (a broadcast's limits too). */
export const NOTIFICATION_TITLE_MAX = 100;
export const NOTIFICATION_BODY_MAX = 1000;

/** One notification: `link` is a path of the web (`/userbank`) or an https URL, null for none. */
export const notification = z.object({
  _id: objectId,
  kind: z.enum(NOTIFICATION_KINDS),
  title: z.string(),
  body: z.string(),
  link: z.string().nullable(),
  createdAt: z.string(),
  read: z.boolean(),
});
export type Notification = z.infer<typeof notification>;

/** `POST notifications {paging, unreadOnly?}`. */
export const notificationsRequest = z.strictObject({ paging, unreadOnly: z.boolean().optional() });
export type NotificationsRequest = z.infer<typeof notificationsRequest>;

/** `{notifications, total, unread, message}`: `total` counts what the filter lists, `unread` every unread one. */
export const notificationsResponse = z.object({
  notifications: z.array(notification),
  total: z.number().int(),
  unread: z.number().int(),
  message: z.string(),
});
export type NotificationsResponse = z.infer<typeof notificationsResponse>;

/** Most ids one `notifications/read` marks. */
export const MAX_NOTIFICATION_IDS = 100;

/** `POST notifications/read {ids?}`: without ids, every notification is marked read. */
export const readNotificationsRequest = z.strictObject({
  ids: z.array(objectId).min(1).max(MAX_NOTIFICATION_IDS).optional(),
});
export type ReadNotificationsRequest = z.infer<typeof readNotificationsRequest>;
export const readNotificationsResponse = z.object({ unread: z.number().int(), message: z.string() });
export type ReadNotificationsResponse = z.infer<typeof readNotificationsResponse>;

/** One flag per kind, each a named property (so the OpenAPI document lists them). */
const kindFlags = Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, z.boolean()])) as Record<
  NotificationKind,
  z.ZodBoolean
>;

/** Per kind, whether it also goes by e-mail: every kind is in an answer. */
export const notificationSettings = z.object({ email: z.object(kindFlags) });
export type NotificationSettings = z.infer<typeof notificationSettings>;

/** `POST notificationSettings {email: {<kind>: boolean}}`: the kinds named change, the others stay. */
export const notificationSettingsRequest = z.strictObject({
  email: z.strictObject(kindFlags).partial(),
});
export type NotificationSettingsRequest = z.infer<typeof notificationSettingsRequest>;
export const notificationSettingsResponse = z.object({ settings: notificationSettings, message: z.string() });
export type NotificationSettingsResponse = z.infer<typeof notificationSettingsResponse>;

/**
 * Whether `text` may be a notification's link: a path of this site (`/` then not a second `/` or `\`, which
 * a browser reads as another host) or an https URL.
 */
export function isNotificationLink(text: string): boolean {
  if (/^\/(?![/\\])/.test(text)) return !/[\s\p{Cc}]/u.test(text);
  return z.url({ protocol: /^https$/ }).safeParse(text).success;
}

/** Text of 1 to `max` characters (trimmed); out of range: `{label} must be 1 to {max} characters`. */
function text(label: string, max: number) {
  const error = (iss: { input?: unknown }) =>
    iss.input === undefined ? undefined : `${label} must be 1 to ${max} characters`;
  return z.string().trim().min(1, { error }).max(max, { error });
}

/** `POST /api/audit/broadcast {title, body, link?, role?}`: to every member, or every member of `role`. */
export const broadcastRequest = z.strictObject({
  title: text('Title', NOTIFICATION_TITLE_MAX),
  body: text('Body', NOTIFICATION_BODY_MAX),
  link: z
    .string()
    .max(500)
    .refine(isNotificationLink, { error: 'Link must be a path of this site (/...) or an https URL' })
    .optional(),
  role: z.enum(ROLES).optional(),
});
export type BroadcastRequest = z.infer<typeof broadcastRequest>;

/** `POST /api/audit/broadcasts {paging}` (admin): the broadcasts sent so far, newest first. */
export const broadcastsRequest = z.strictObject({ paging });
export type BroadcastsRequest = z.infer<typeof broadcastsRequest>;

/** One broadcast as the admin console lists it: `role` null when it went to every member. */
export const sentBroadcast = z.object({
  _id: objectId,
  title: z.string(),
  body: z.string(),
  link: z.string().nullable(),
  role: z.string().nullable(),
  createdAt: z.string(),
});
export type SentBroadcast = z.infer<typeof sentBroadcast>;
export const broadcastsResponse = z.object({
  broadcasts: z.array(sentBroadcast),
  total: z.number().int(),
  message: z.string(),
});
export type BroadcastsResponse = z.infer<typeof broadcastsResponse>;
