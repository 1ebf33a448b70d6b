/** Routes of /api/audit: the alert level (SPEC §7 Audit; DESIGN §3 read path) and the access and admin logs. */
import {
  defconResponse,
  errorResponse,
  getAccessLogsRequest,
  getAccessLogsResponse,
  getAdminLogsRequest,
  getAdminLogsResponse,
  messageResponse,
  setDefconRequest,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../http/access.ts';
import { sendJson } from '../../lib/response-cache.ts';
import * as audit from './audit.service.ts';
import { startDefconAnswers } from './defcon.cache.ts';

/** `readDb` serves the log lists (lag-tolerant, issue 21 §2). */
export const auditRoutes: FastifyPluginAsyncZod<{ db: Db; readDb: Db }> = async (app, { db, readDb }) => {
  const tags = ['audit'];
  // The alert level every page reads, kept per process (issue 19 §2); a change drops it everywhere.
  const defcon = startDefconAnswers(app, db);
  app.addHook('onClose', async () => defcon.stop());
  app.get(
    '/getDefconLevel',
    {
      config: { access: 'public' },
      schema: {
        summary: 'The alert level (defcon) and its message, shown to every visitor',
        tags,
        response: { 200: defconResponse },
      },
    },
    (_req, reply) => sendJson(reply, defcon.get()),
  );
  app.post(
    '/setDefconLevel',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Set the alert level 0-5 and its message (admin)',
        tags,
        body: setDefconRequest,
        response: { 200: messageResponse, '4xx': errorResponse },
      },
    },
    (req) => audit.setDefconLevel(db, app.live.bus, requireAuth(req), req.body, req.ip).finally(() => defcon.clear()),
  );

  app.post(
    '/getAccessLogs',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Sign-ins matching the filters, a page at a time (admin)',
        tags,
        body: getAccessLogsRequest,
        response: { 200: getAccessLogsResponse, '4xx': errorResponse },
      },
    },
    (req) => audit.getAccessLogs(readDb, req.body),
  );
  app.post(
    '/getAdminLogs',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Admin actions matching the filters, a page at a time (admin)',
        tags,
        body: getAdminLogsRequest,
        response: { 200: getAdminLogsResponse, '4xx': errorResponse },
      },
    },
    (req) => audit.getAdminLogs(readDb, req.body),
  );
};
