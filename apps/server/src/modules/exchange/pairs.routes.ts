/** Routes of /api/cex's trading pairs (SPEC §7 Exchange, DESIGN §5): creating, changing, deleting, listing. */
import {
  createPairRequest,
  deletePairRequest,
  deletePairResponse,
  errorResponse,
  modifyPairRequest,
  pairResponse,
  pairsResponse,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../http/access.ts';
import { withLiveChanges } from '../../http/money-moving.ts';
import * as pairs from './pairs.service.ts';

/** The pairs' changes are pushed to the live feed once they commit. */
export const pairsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const tags = ['exchange'];
  const errors = { '4xx': errorResponse };

  app.post(
    '/createPair',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Create a trading pair between two currencies (admin)',
        tags,
        body: createPairRequest,
        response: { 200: pairResponse, ...errors },
      },
    },
    (req) => pairs.createPair(db, requireAuth(req), req.body, req.ip),
  );

  app.post(
    '/modifyPair',
    {
      config: { access: 'admin' },
      schema: {
        summary: "Change a trading pair's flags, fee and fee collector (admin)",
        tags,
        body: modifyPairRequest,
        response: { 200: pairResponse, ...errors },
      },
    },
    (req) =>
      withLiveChanges(app.live.changes, (changes) => pairs.modifyPair(db, requireAuth(req), req.body, req.ip, changes)),
  );

  app.post(
    '/deletePair',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Delete a trading pair after cancelling and refunding its open orders (admin)',
        tags,
        body: deletePairRequest,
        response: { 200: deletePairResponse, ...errors },
      },
    },
    (req) =>
      withLiveChanges(app.live.changes, (changes) =>
        pairs.deletePair(db, requireAuth(req), req.body.pairId, req.ip, changes),
      ),
  );

  app.get(
    '/getPairs',
    {
      config: { access: 'public' },
      schema: {
        summary: 'The trading pairs (admins also see hidden ones)',
        tags,
        response: { 200: pairsResponse, ...errors },
      },
    },
    (req) => pairs.listPairs(db, req.auth),
  );
};
