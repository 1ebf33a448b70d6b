/** `POST /api/exports/link` (DESIGN §11.6): a single-use download link for one CSV export. */
import { errorResponse, exportLinkRequest, exportLinkResponse } from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../http/access.ts';
import { CSV_EXPORTS_PER_MINUTE, perMemberLimit } from '../../plugins/rate-limit.ts';
import { createExportLink } from './exports.service.ts';

export const exportsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.post(
    '/link',
    {
      // As many links a minute as exports. A link is made in a session and works only while it lives: no API key (they send their key instead).
      config: {
        access: 'member',
        sessionOnly: true,
        rateLimit: perMemberLimit('export-links', CSV_EXPORTS_PER_MINUTE, '1 minute'),
      },
      schema: {
        summary: 'A single-use download link, valid 60 seconds, for one CSV export with its filters',
        tags: ['exports'],
        body: exportLinkRequest,
        response: { 200: exportLinkResponse, '4xx': errorResponse },
      },
    },
    async (req) => {
      const auth = requireAuth(req);
      const link = await createExportLink(db, auth.id, auth.sessionId ?? '', req.body.path, req.body.query);
      return { ...link, message: 'Download link ready' };
    },
  );
};
