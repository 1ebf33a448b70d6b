/**
 * Admin routes of /api/user (SPEC §7, DESIGN §8): the user list and administrateUser. `/getUserStats`
 * beside them is the reports module's (reports/user-stats.routes.ts).
 */
import {
  administrateUserRequest,
  administrateUserResponse,
  errorResponse,
  getUsersRequest,
  getUsersResponse,
  usersCsvQuery,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/access.ts';
import { csvFileName, sendCsv } from '../../lib/csv-export.ts';
import { csvExportLimit } from '../../plugins/rate-limit.ts';
import * as admin from './admin.service.ts';
import type { UsersDeps } from './users.service.ts';
import { USER_COLUMNS, userPages } from './users-export.service.ts';

export const usersAdminRoutes: FastifyPluginAsyncZod<{ deps: UsersDeps }> = async (app, { deps }) => {
  const tags = ['user'];
  const config = { access: 'admin' as const };

  app.post(
    '/getUsers',
    {
      config,
      schema: {
        summary: 'Accounts matching the filters, a page at a time (admin)',
        tags,
        body: getUsersRequest,
        response: { 200: getUsersResponse, '4xx': errorResponse },
      },
    },
    (req) => admin.getUsers(deps, req.body),
  );

  app.get(
    '/users.csv',
    {
      config: { ...config, downloadLink: true, rateLimit: csvExportLimit() },
      schema: {
        summary: 'Every account matching the user list filters, as CSV, newest first (admin, DESIGN §11.6)',
        tags,
        querystring: usersCsvQuery,
        response: { '4xx': errorResponse },
      },
    },
    (req, reply) => {
      sendCsv(req, reply, csvFileName('users'), USER_COLUMNS, userPages(deps.readDb, req.query));
    },
  );

  app.post(
    '/administrateUser',
    {
      config,
      schema: {
        summary: "Set an account's role and active state, effective at once (admin)",
        tags,
        body: administrateUserRequest,
        response: { 200: administrateUserResponse, '4xx': errorResponse },
      },
    },
    (req) => admin.administrateUser(deps, requireAuth(req), req.body, req.ip),
  );
};
