/** Routes of /api/cex's market reads (SPEC §7 Exchange): the book, a member's orders, trades, candles, depth. */
import {
  candlesResponse,
  depthResponse,
  errorResponse,
  getBookPageRequest,
  getCandlesRequest,
  getDepthRequest,
  getMyOrdersPageRequest,
  getOrdersRequest,
  getOrdersResponse,
  getTradesRequest,
  getUserOrdersQuery,
  ordersPageResponse,
  tradesResponse,
  userOrdersResponse,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../http/access.ts';
import { sendJson } from '../../lib/response-cache.ts';
import type { MarketAnswers } from './market.cache.ts';
import * as market from './market.service.ts';
import { requireViewablePair } from './pairs.service.ts';

/** `answers`: the module's kept market reads, built once per change of their pair; `db`: the pages' reads. */
export const marketRoutes: FastifyPluginAsyncZod<{ answers: MarketAnswers; db: Db }> = async (app, { answers, db }) => {
  const tags = ['exchange'];
  const errors = { '4xx': errorResponse };

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
      config: { access: 'member', scope: 'read' },
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
    '/getMyOrdersPage',
    {
      config: { access: 'member', scope: 'read' },
      schema: {
        summary: "A page of the caller's own orders of one state (1 Placed, 2 Cancelled, 3 Filled), newest first",
        tags,
        body: getMyOrdersPageRequest,
        response: { 200: ordersPageResponse, ...errors },
      },
    },
    (req) => market.myOrdersPage(db, requireAuth(req), req.body),
  );

  app.post(
    '/getBookPage',
    {
      config: { access: 'public' },
      schema: {
        summary: "A page of one side of a pair's open orders in price-time priority, without owners",
        tags,
        body: getBookPageRequest,
        response: { 200: ordersPageResponse, ...errors },
      },
    },
    async (req) => market.bookPage(db, await requireViewablePair(db, req.body.pair, req.auth), req.body),
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
        summary: "A pair's book by price level (price, open quantity, order count), best first; `levels` a side",
        tags,
        body: getDepthRequest,
        response: { 200: depthResponse, ...errors },
      },
    },
    (req, reply) => sendJson(reply, answers.depth(req.auth, req.body.pair, req.body.levels)),
  );
};
