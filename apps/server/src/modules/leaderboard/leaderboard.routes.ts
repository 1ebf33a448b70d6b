/** The leaderboard route of /api/user (DESIGN §6). Thin: schema, access, one service call. */
import { errorResponse, leaderboardRequest, leaderboardResponse } from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import type { KeptCurrencies } from '../bank/bank.public.ts';
import { leaderboard, type TopCache } from './leaderboard.service.ts';
import type { LeaderboardStore } from './leaderboard.store.ts';

/** `currencies`: the kept currency list; `cache`: the kept top of each currency. */
export const leaderboardRoutes: FastifyPluginAsyncZod<{
  db: Db;
  readDb: Db;
  store: LeaderboardStore;
  currencies: KeptCurrencies;
  cache: TopCache;
}> = async (app, { db, readDb, store, currencies, cache }) => {
  app.post(
    '/leaderboard',
    {
      config: { access: 'public' },
      schema: {
        summary: "The top 100 holders of a currency and, when signed in, the caller's rank and neighbours",
        tags: ['user'],
        body: leaderboardRequest,
        response: { 200: leaderboardResponse, '4xx': errorResponse },
      },
    },
    (req) => leaderboard(db, readDb, store, currencies, req.body.currencyId, req.auth, cache),
  );
};
