/**
 * Routes of /api/user for notifications (DESIGN §11.3). Reading the list and marking it read take an API
 * key with the `read` scope (a bot may follow what happens to its account; a read mark moves nothing of
 * value); the e-mail choices are account management, with the session only (`sessionOnly`).
 */
import {
  errorResponse,
  notificationSettingsRequest,
  notificationSettingsResponse,
  notificationsRequest,
  notificationsResponse,
  readNotificationsRequest,
  readNotificationsResponse,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../http/access.ts';
import * as notifications from './notifications.service.ts';

export const notificationsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const tags = ['user'];
  const read = { access: 'member' as const, scope: 'read' as const };
  const session = { access: 'member' as const, sessionOnly: true };

  app.post(
    '/notifications',
    {
      config: read,
      schema: {
        summary: "The caller's notifications and the broadcasts they see, newest first, with the unread count",
        tags,
        body: notificationsRequest,
        response: { 200: notificationsResponse, '4xx': errorResponse },
      },
    },
    (req) => notifications.listNotifications(db, requireAuth(req).id, req.body),
  );

  app.post(
    '/notifications/read',
    {
      config: read,
      schema: {
        summary: "Mark the caller's notifications `ids` read, or all of them when none are given",
        tags,
        body: readNotificationsRequest,
        response: { 200: readNotificationsResponse, '4xx': errorResponse },
      },
    },
    (req) => notifications.markRead(db, requireAuth(req).id, req.body.ids),
  );

  app.get(
    '/notificationSettings',
    {
      config: session,
      schema: {
        summary: 'Which kinds of notification also go to the caller by e-mail',
        tags,
        response: { 200: notificationSettingsResponse, '4xx': errorResponse },
      },
    },
    (req) => notifications.getSettings(db, requireAuth(req).id),
  );

  app.post(
    '/notificationSettings',
    {
      config: session,
      schema: {
        summary: 'Choose, per kind, which notifications also go by e-mail; kinds not named keep their choice',
        tags,
        body: notificationSettingsRequest,
        response: { 200: notificationSettingsResponse, '4xx': errorResponse },
      },
    },
    (req) => notifications.setSettings(db, requireAuth(req).id, req.body.email),
  );
};
