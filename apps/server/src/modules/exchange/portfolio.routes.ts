/** Route of /api/cex's portfolio (DESIGN §11.4): the caller's holdings valued in one currency. */
import { errorResponse, portfolioRequest, portfolioResponse } from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../http/access.ts';
import { getPortfolio } from './portfolio.service.ts';

export const portfolioRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.post(
    '/portfolio',
    {
      config: { access: 'member', scope: 'read' },
      schema: {
        summary: "The caller's holdings valued in one currency at the last traded prices, and 30 days of history",
        tags: ['exchange'],
        body: portfolioRequest,
        response: { 200: portfolioResponse, '4xx': errorResponse },
      },
    },
    (req) => getPortfolio(db, requireAuth(req), req.body.currencyId),
  );
};
