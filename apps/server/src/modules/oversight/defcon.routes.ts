/** Routes of /api/audit's alert level (SPEC §7 Audit; DESIGN §3 read path). */
import { defconResponse, errorResponse, messageResponse, setDefconRequest } from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../http/access.ts';
import { sendJson } from '../../lib/response-cache.ts';
import type { DefconAnswers } from './defcon.cache.ts';
import * as defconService from './defcon.service.ts';

/** The level every page reads comes from `defcon`, the module's kept answer. */
export const defconRoutes: FastifyPluginAsyncZod<{ db: Db; defcon: DefconAnswers }> = async (app, { db, defcon }) => {
  const tags = ['audit'];
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
    (req) =>
      defconService.setDefconLevel(db, app.live, requireAuth(req), req.body, req.ip).finally(() => defcon.clear()),
  );
};
