/** Routes of /api/audit's access and admin logs (SPEC §2 Access Logs, Admin Logs). */
import {
  errorResponse,
  getAccessLogsRequest,
  getAccessLogsResponse,
  getAdminLogsRequest,
  getAdminLogsResponse,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import * as logs from './logs.service.ts';

/** `readDb` serves the log lists (lag-tolerant). */
export const logsRoutes: FastifyPluginAsyncZod<{ readDb: Db }> = async (app, { readDb }) => {
  const tags = ['audit'];
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
    (req) => logs.getAccessLogs(readDb, req.body),
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
    (req) => logs.getAdminLogs(readDb, req.body),
  );
};
