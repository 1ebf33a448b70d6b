/**
 * Routes of /api/audit's broadcast (DESIGN §11.3): an admin's notification to every member or one role, and
 * the list of those sent.
 */
import {
  broadcastRequest,
  broadcastsRequest,
  broadcastsResponse,
  errorResponse,
  messageResponse,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../http/access.ts';
import { listBroadcasts, sendBroadcast } from './broadcast.service.ts';

export const broadcastRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.post(
    '/broadcast',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Send a notification to every member, or every member of a role, written to the admin log (admin)',
        tags: ['audit'],
        body: broadcastRequest,
        response: { 200: messageResponse, '4xx': errorResponse },
      },
    },
    (req) => sendBroadcast(db, app.live.changes, requireAuth(req), req.body, req.ip),
  );
  app.post(
    '/broadcasts',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'The broadcasts sent, newest first, a page at a time (admin)',
        tags: ['audit'],
        body: broadcastsRequest,
        response: { 200: broadcastsResponse, '4xx': errorResponse },
      },
    },
    (req) => listBroadcasts(db, req.body),
  );
};
