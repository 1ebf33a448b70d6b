/** Routes of /api/audit: the alert level (SPEC §7 Audit; DESIGN §3 read path). */
import { defconResponse, errorResponse, messageResponse } from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../plugins/auth.ts';
import * as audit from './audit.service.ts';

/** SPEC §5 alert level: defconLvl 0 to 5 and defconMsg required. */
export const setDefconRequest = z.strictObject({
  defconLvl: z.number().int().min(0).max(5),
  defconMsg: z.string().max(1000),
});

export const auditRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const tags = ['audit'];
  app.get(
    '/getDefconLevel',
    { config: { access: 'public' }, schema: { tags, response: { 200: defconResponse } } },
    () => audit.getDefconLevel(db),
  );
  app.post(
    '/setDefconLevel',
    {
      config: { access: 'admin' },
      schema: { tags, body: setDefconRequest, response: { 200: messageResponse, '4xx': errorResponse } },
    },
    (req) => audit.setDefconLevel(db, requireAuth(req), req.body, req.ip),
  );
};
