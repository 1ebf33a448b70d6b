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
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/access.ts';
import * as admin from './admin.service.ts';
import type { UsersDeps } from './users.service.ts';

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
