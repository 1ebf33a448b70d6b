/**
 * Routes of /api/cex, the Quantum Hub (SPEC §7 Exchange, DESIGN §5). Thin: schema, access, one service
 * call; money-moving requests run under their Idempotency-Key, and what they changed goes to the live
 * feed once they commit.
 */
import {
  candlesResponse,
  createPairRequest,
  deletePairRequest,
  deletePairResponse,
  depthResponse,
  errorResponse,
  getCandlesRequest,
  getDepthRequest,
  getOrdersRequest,
  getOrdersResponse,
  getTradesRequest,
  getUserOrdersQuery,
  modifyPairRequest,
  orderIdRequest,
  orderResponse,
  type PlaceOrderResponse,
  pairResponse,
  pairsResponse,
  placeOrderRequest,
  placeOrderResponse,
  tradesResponse,
  userOrdersResponse,
} from '@starlight/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db, Tx } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import { GroupCommit } from '../../lib/group-commit.ts';
import { LiveChanges } from '../../lib/live-changes.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { withIdempotency } from '../bank/idempotency.ts';
import { startExchangeLive } from './exchange.live.ts';
import * as exchange from './exchange.service.ts';

function idempotencyKey(req: FastifyRequest): string | undefined {
  const v = req.headers['idempotency-key'];
  return Array.isArray(v) ? v[0] : v;
}

export const exchangeRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const tags = ['exchange'];
  const errors = { '4xx': errorResponse };
  const stopLive = startExchangeLive(app, db);
  const publisher = app.live.changes;
  // Orders without an Idempotency-Key are placed in per-pair batches (group commit, DESIGN §9): the
  // pair's orders that arrive while its previous batch is written go together in one transaction.
  const orderBatches = new GroupCommit<exchange.OrderJob, PlaceOrderResponse>(async (pairId, jobs) => {
    const changes = new LiveChanges();
    const outcomes = await inTransaction(db, (tx) => exchange.placeOrders(tx, pairId, jobs, changes));
    publisher.add(changes);
    return outcomes;
  }, 32);
  app.addHook('onClose', async () => stopLive());

  /** Runs `work` with a change set, then publishes the changes to the live feed. */
  const withChanges = async <T>(work: (changes: LiveChanges) => Promise<T>): Promise<T> => {
    const changes = new LiveChanges();
    const result = await work(changes);
    publisher.add(changes);
    return result;
  };
  /** A money-moving request: one transaction under the Idempotency-Key, then the live feed. */
  const moneyMoving = <T>(req: FastifyRequest, work: (tx: Tx, changes: LiveChanges) => Promise<T>): Promise<T> =>
    withChanges((changes) =>
      withIdempotency(
        db,
        {
          userId: requireAuth(req).id,
          key: idempotencyKey(req),
          route: req.routeOptions.url ?? req.url,
          body: req.body,
        },
        (tx) => work(tx, changes),
      ),
    );

  app.post(
    '/createPair',
    {
      config: { access: 'admin' },
      schema: { tags, body: createPairRequest, response: { 200: pairResponse, ...errors } },
    },
    (req) => exchange.createPair(db, requireAuth(req), req.body, req.ip),
  );

  app.post(
    '/modifyPair',
    {
      config: { access: 'admin' },
      schema: { tags, body: modifyPairRequest, response: { 200: pairResponse, ...errors } },
    },
    (req) => exchange.modifyPair(db, requireAuth(req), req.body, req.ip),
  );

  app.post(
    '/deletePair',
    {
      config: { access: 'admin' },
      schema: { tags, body: deletePairRequest, response: { 200: deletePairResponse, ...errors } },
    },
    (req) => withChanges((changes) => exchange.deletePair(db, requireAuth(req), req.body.pairId, req.ip, changes)),
  );

  app.get(
    '/getPairs',
    { config: { access: 'public' }, schema: { tags, response: { 200: pairsResponse, ...errors } } },
    (req) => exchange.listPairs(db, req.auth),
  );

  app.post(
    '/placeOrder',
    {
      config: { access: 'member' },
      schema: { tags, body: placeOrderRequest, response: { 200: placeOrderResponse, ...errors } },
    },
    // With an Idempotency-Key the order goes alone, in the key's transaction; without, with its pair's batch.
    (req) =>
      idempotencyKey(req) === undefined
        ? orderBatches.submit(req.body.pair, { member: requireAuth(req), input: req.body })
        : moneyMoving(req, (tx, changes) => exchange.placeOrder(tx, requireAuth(req), req.body, changes)),
  );

  app.post(
    '/cancelOrder',
    {
      config: { access: 'member' },
      schema: { tags, body: orderIdRequest, response: { 200: orderResponse, ...errors } },
    },
    (req) => moneyMoving(req, (tx, changes) => exchange.cancelOrder(tx, requireAuth(req), req.body.orderId, changes)),
  );

  app.post(
    '/payoutOrder',
    {
      config: { access: 'admin' },
      schema: { tags, body: orderIdRequest, response: { 200: orderResponse, ...errors } },
    },
    (req) =>
      moneyMoving(req, (tx, changes) => exchange.payoutOrder(tx, requireAuth(req), req.body.orderId, req.ip, changes)),
  );

  app.post(
    '/getOrders',
    {
      config: { access: 'public' },
      schema: { tags, body: getOrdersRequest, response: { 200: getOrdersResponse, ...errors } },
    },
    (req) => exchange.listBook(db, req.auth, req.body.pair),
  );

  app.get(
    '/getUserOrders',
    {
      config: { access: 'member' },
      schema: { tags, querystring: getUserOrdersQuery, response: { 200: userOrdersResponse, ...errors } },
    },
    (req) => exchange.listUserOrders(db, requireAuth(req), req.query.pair),
  );

  app.post(
    '/getTrades',
    {
      config: { access: 'public' },
      schema: { tags, body: getTradesRequest, response: { 200: tradesResponse, ...errors } },
    },
    (req) => exchange.listTrades(db, req.auth, req.body.pair, req.body.limit),
  );

  app.post(
    '/getCandles',
    {
      config: { access: 'public' },
      schema: { tags, body: getCandlesRequest, response: { 200: candlesResponse, ...errors } },
    },
    (req) => exchange.listCandles(db, req.auth, req.body.pair, req.body.interval, req.body.limit),
  );

  app.post(
    '/getDepth',
    {
      config: { access: 'public' },
      schema: { tags, body: getDepthRequest, response: { 200: depthResponse, ...errors } },
    },
    (req) => exchange.depthOf(db, req.auth, req.body.pair, req.body.levels),
  );
};
