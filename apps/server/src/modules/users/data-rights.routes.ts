/**
 * A member's data rights under /api/user (DESIGN §11.6): `export` (the account's own data as JSON),
 * `deleteAccount` (session tokens only), and the admin's `deleteUserAccount`.
 */
import { Readable } from 'node:stream';
import { deleteAccountRequest, deleteUserAccountRequest, errorResponse, messageResponse } from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.ts';
import { perIpLimit } from '../../plugins/rate-limit.ts';
import { exportAccount } from './account-export.service.ts';
import { deleteAccount, deleteUserAccount } from './deletion.service.ts';
import type { UsersDeps } from './users.service.ts';

/** Exports a client address may start per 15 minutes: each reads the whole account. */
const EXPORTS_PER_WINDOW = 10;

export const dataRightsRoutes: FastifyPluginAsyncZod<{ deps: UsersDeps }> = async (app, { deps }) => {
  const tags = ['user'];
  const own = { access: 'member' as const, sessionOnly: true };

  app.get(
    '/export',
    {
      config: { ...own, rateLimit: perIpLimit(EXPORTS_PER_WINDOW) },
      schema: {
        summary:
          "The caller's own data as one JSON file: profile, balances, history, items, orders, forge processes, checkouts, sessions, sign-ins",
        tags,
        response: { 200: z.unknown().describe('The JSON file, streamed'), '4xx': errorResponse },
      },
    },
    async (req, reply) => {
      const auth = requireAuth(req);
      const chunks = await exportAccount(deps.db, auth.id);
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type('application/json; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="starlight-account-${day}.json"`)
        .header('Cache-Control', 'no-store')
        .send(Readable.from(chunks));
    },
  );

  app.post(
    '/deleteAccount',
    {
      config: own,
      schema: {
        summary: "Delete (anonymise) the caller's account; refused while it holds anything",
        tags,
        body: deleteAccountRequest,
        response: { 200: messageResponse, '4xx': errorResponse },
      },
    },
    (req) => deleteAccount(deps, requireAuth(req), req.body),
  );

  app.post(
    '/deleteUserAccount',
    {
      config: { access: 'admin' },
      schema: {
        summary: "Delete (anonymise) a member's account, written to the admin log (admin)",
        tags,
        body: deleteUserAccountRequest,
        response: { 200: messageResponse, '4xx': errorResponse },
      },
    },
    (req) => deleteUserAccount(deps, requireAuth(req), req.body.nickname, req.ip),
  );
};
