/** Route of /api/bank's conservation audit (SPEC §7 Bank; DESIGN §4). */
import { auditQuery, auditResponse, errorResponse } from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import * as conservation from './conservation.service.ts';

/** The audit reads the primary: it compares figures of one snapshot. */
export const conservationRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const tags = ['bank'];
  const errors = { '4xx': errorResponse };

  app.get(
    '/audit',
    {
      config: { access: 'admin' },
      schema: {
        summary:
          'Conservation check per currency: balances plus escrow equal issued minus removed, with tamper checks; full=true recounts the whole ledger (admin)',
        tags,
        querystring: auditQuery,
        response: { 200: auditResponse, ...errors },
      },
    },
    (req) => conservation.audit(db, { full: req.query.full === 'true' }),
  );
};
