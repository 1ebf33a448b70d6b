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
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../http/access.ts';
import { inLiveTransaction, moneyMoving, moneyMovingBatched, withLiveChanges } from '../../http/money-moving.ts';
import { GroupCommit } from '../../lib/group-commit.ts';
import { sendJson } from '../../lib/response-cache.ts';
import { startExchangeLive } from './exchange.live.ts';
import { startMarketAnswers } from './market.cache.ts';
import * as orders from './orders.service.ts';
import * as pairs from './pairs.service.ts';

/** `readDb` serves trades and candles (lag-tolerant, issue 21 §2). */
export const exchangeRoutes: FastifyPluginAsyncZod<{ db: Db; readDb: Db }> = async (app, { db, readDb }) => {
  const tags = ['exchange'];
  const errors = { '4xx': errorResponse };
  const stopLive = startExchangeLive(app, db);
  // The public market reads, built once per change of their pair (market.cache.ts).
  const answers = startMarketAnswers(app, db, readDb);
  app.addHook('onClose', async () => {
    stopLive();
    answers.stop();
  });
  const publisher = app.live.changes;
  // Orders without an Idempotency-Key are placed in batches (group commit, DESIGN §9): the orders that
  // arrive while the previous batch is written go together in one transaction, whatever their pairs. One
  // lane: per-pair lanes wrote small batches that waited on each other's balance rows (a trader's currency
  // is on several pairs), at twice the CPU per order of one hot pair (issue 20).
  const orderBatches = new GroupCommit<orders.OrderJob, PlaceOrderResponse>(
    (_lane, jobs, commit) =>
      inLiveTransaction(db, publisher, (tx, changes) => orders.placeOrders(tx, jobs, changes, { pairsLocked: true }), {
        first: orders.pairLocksOf(jobs),
        commitBehindLast: true,
        ...commit,
      }),
    32,
  );

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
    (req) => withLiveChanges(publisher, (changes) => pairs.modifyPair(db, requireAuth(req), req.body, req.ip, changes)),
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
      withLiveChanges(publisher, (changes) => pairs.deletePair(db, requireAuth(req), req.body.pairId, req.ip, changes)),
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

  app.post(
    '/placeOrder',
    {
      config: { access: 'member' },
      schema: {
        summary: 'Place a buy or sell order; it escrows funds and matches by price-time priority',
        tags,
        body: placeOrderRequest,
        response: { 200: placeOrderResponse, ...errors },
      },
    },
    // With an Idempotency-Key the order goes alone, in the key's transaction; without, with the next batch.
    (req) =>
      moneyMovingBatched(
        db,
        req,
        orderBatches,
        'orders',
        { member: requireAuth(req), input: req.body },
        (tx, changes) => orders.placeOrder(tx, requireAuth(req), req.body, changes),
      ),
  );

  app.post(
    '/cancelOrder',
    {
      config: { access: 'member' },
      schema: {
        summary: 'Cancel an open order and return its unfilled escrow (owner or admin)',
        tags,
        body: orderIdRequest,
        response: { 200: orderResponse, ...errors },
      },
    },
    (req) => moneyMoving(db, req, (tx, changes) => orders.cancelOrder(tx, requireAuth(req), req.body.orderId, changes)),
  );

  app.post(
    '/payoutOrder',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Close a sell order settled outside the platform, burning its escrowed rest (admin)',
        tags,
        body: orderIdRequest,
        response: { 200: orderResponse, ...errors },
      },
    },
    (req) =>
      moneyMoving(db, req, (tx, changes) =>
        orders.payoutOrder(tx, requireAuth(req), req.body.orderId, req.ip, changes),
      ),
  );

  app.post(
    '/getOrders',
    {
      config: { access: 'public' },
      schema: {
        summary: "A pair's open orders (the order book) without owners",
        tags,
        body: getOrdersRequest,
        response: { 200: getOrdersResponse, ...errors },
      },
    },
    (req, reply) => sendJson(reply, answers.book(req.auth, req.body.pair)),
  );

  app.get(
    '/getUserOrders',
    {
      config: { access: 'member' },
      schema: {
        summary: "The caller's own orders of every state, newest first",
        tags,
        querystring: getUserOrdersQuery,
        response: { 200: userOrdersResponse, ...errors },
      },
    },
    (req, reply) => sendJson(reply, answers.userOrders(requireAuth(req), req.query.pair)),
  );

  app.post(
    '/getTrades',
    {
      config: { access: 'public' },
      schema: {
        summary: "A pair's recent trades, newest first",
        tags,
        body: getTradesRequest,
        response: { 200: tradesResponse, ...errors },
      },
    },
    (req, reply) => sendJson(reply, answers.trades(req.auth, req.body.pair, req.body.limit)),
  );

  app.post(
    '/getCandles',
    {
      config: { access: 'public' },
      schema: {
        summary: "A pair's price candles (OHLC and volume) for the chart",
        tags,
        body: getCandlesRequest,
        response: { 200: candlesResponse, ...errors },
      },
    },
    (req, reply) => sendJson(reply, answers.candles(req.auth, req.body.pair, req.body.interval, req.body.limit)),
  );

  app.post(
    '/getDepth',
    {
      config: { access: 'public' },
      schema: {
        summary: "A pair's open quantity per price level",
        tags,
        body: getDepthRequest,
        response: { 200: depthResponse, ...errors },
      },
    },
    (req, reply) => sendJson(reply, answers.depth(req.auth, req.body.pair, req.body.levels)),
  );
};
