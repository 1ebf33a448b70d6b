/**
 * Route of the admin's user stats (SPEC §7, DESIGN §8), served by the reports module under /api/user
 * beside the users module's admin routes, at the path and with the shapes it has always had.
 */
import { errorResponse, getUserStatsRequest, getUserStatsResponse } from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import * as userStats from './user-stats.service.ts';

/** `readDb` serves the stats: a lag-tolerant read. */
export const userStatsRoutes: FastifyPluginAsyncZod<{ readDb: Db }> = async (app, { readDb }) => {
  const tags = ['user'];

  app.post(
    '/getUserStats',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Counts of accounts created in a date range (admin)',
        tags,
        body: getUserStatsRequest,
        response: { 200: getUserStatsResponse, '4xx': errorResponse },
      },
    },
    (req) => userStats.getUserStats(readDb, req.body),
  );
};
