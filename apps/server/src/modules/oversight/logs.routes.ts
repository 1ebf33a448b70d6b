/** Routes of /api/audit's access and admin logs (SPEC §2 Access Logs, Admin Logs). */
import {
  accessLogsCsvQuery,
  adminLogsCsvQuery,
  errorResponse,
  getAccessLogsRequest,
  getAccessLogsResponse,
  getAdminLogsRequest,
  getAdminLogsResponse,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { csvFileName, sendCsv } from '../../lib/csv-export.ts';
import { csvExportLimit } from '../../plugins/rate-limit.ts';
import * as logs from './logs.service.ts';
import { ACCESS_LOG_COLUMNS, ADMIN_LOG_COLUMNS, accessLogPages, adminLogPages } from './logs-export.service.ts';

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
  const csv = { access: 'admin' as const, downloadLink: true, rateLimit: csvExportLimit() };
  app.get(
    '/accessLogs.csv',
    {
      config: csv,
      schema: {
        summary: 'Every sign-in matching the Access Logs filters, as CSV, newest first (admin, DESIGN §11.6)',
        tags,
        querystring: accessLogsCsvQuery,
        response: { '4xx': errorResponse },
      },
    },
    (req, reply) => {
      sendCsv(req, reply, csvFileName('access-logs'), ACCESS_LOG_COLUMNS, accessLogPages(readDb, req.query));
    },
  );
  app.get(
    '/adminLogs.csv',
    {
      config: csv,
      schema: {
        summary: 'Every admin action matching the Admin Logs filters, as CSV, newest first (admin, DESIGN §11.6)',
        tags,
        querystring: adminLogsCsvQuery,
        response: { '4xx': errorResponse },
      },
    },
    (req, reply) => {
      sendCsv(req, reply, csvFileName('admin-logs'), ADMIN_LOG_COLUMNS, adminLogPages(readDb, req.query));
    },
  );
};
