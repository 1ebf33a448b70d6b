/**
 * Sessions under /api/user (DESIGN §11.1): a member's own (`sessions`, `sessions/end`,
 * `sessions/endOthers`, session tokens only) and an admin's view of a member's (`getUserSessions`,
 * `endUserSessions`).
 */
import {
  endOtherSessionsRequest,
  endSessionRequest,
  errorResponse,
  messageResponse,
  resetUserMfaRequest,
  sessionsResponse,
  userSessionsRequest,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/access.ts';
import * as sessions from './sessions.service.ts';
import type { UsersDeps } from './users.service.ts';

export const sessionsRoutes: FastifyPluginAsyncZod<{ deps: UsersDeps }> = async (app, { deps }) => {
  const tags = ['user'];
  const own = { access: 'member' as const, sessionOnly: true };
  const admin = { access: 'admin' as const };

  app.get(
    '/sessions',
    {
      config: own,
      schema: {
        summary: "The caller's live sessions, newest first, the current one marked",
        tags,
        response: { 200: sessionsResponse, '4xx': errorResponse },
      },
    },
    (req) => sessions.listSessions(deps, requireAuth(req)),
  );

  app.post(
    '/sessions/end',
    {
      config: own,
      schema: {
        summary: "End one of the caller's sessions: its token is refused at once everywhere",
        tags,
        body: endSessionRequest,
        response: { 200: messageResponse, '4xx': errorResponse },
      },
    },
    (req) => sessions.endSession(deps, requireAuth(req), req.body._id),
  );

  app.post(
    '/sessions/endOthers',
    {
      config: own,
      schema: {
        summary: "End every session of the caller's but the current one",
        tags,
        body: endOtherSessionsRequest,
        response: { 200: messageResponse, '4xx': errorResponse },
      },
    },
    (req) => sessions.endOtherSessions(deps, requireAuth(req)),
  );

  app.post(
    '/getUserSessions',
    {
      config: admin,
      schema: {
        summary: "A member's live sessions (admin)",
        tags,
        body: userSessionsRequest,
        response: { 200: sessionsResponse, '4xx': errorResponse },
      },
    },
    (req) => sessions.getUserSessions(deps, req.body.nickname),
  );

  app.post(
    '/endUserSessions',
    {
      config: admin,
      schema: {
        summary: 'End every session of a member, written to the admin log (admin)',
        tags,
        body: userSessionsRequest,
        response: { 200: messageResponse, '4xx': errorResponse },
      },
    },
    (req) => sessions.endUserSessions(deps, requireAuth(req), req.body.nickname, req.ip),
  );

  app.post(
    '/resetUserMfa',
    {
      config: admin,
      schema: {
        summary:
          "Turn a member's second factors off (authenticator app and passkeys), written to the admin log (admin)",
        tags,
        body: resetUserMfaRequest,
        response: { 200: messageResponse, '4xx': errorResponse },
      },
    },
    (req) => sessions.resetUserMfa(deps, requireAuth(req), req.body.nickname, req.ip),
  );
};
