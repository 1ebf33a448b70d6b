/**
 * Routes of /api/cex's orders (SPEC §7 Exchange, DESIGN §5): placing, cancelling and paying out an order
 * under its Idempotency-Key (or in the module's batches without one).
 */
import {
  cancelAllOrdersRequest,
  cancelAllOrdersResponse,
  errorResponse,
  orderIdRequest,
  orderResponse,
  placeOrderRequest,
  placeOrderResponse,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../http/access.ts';
import { moneyMoving, moneyMovingBatched } from '../../http/money-moving.ts';
import type { OrderBatches } from './orders.batches.ts';
import * as orders from './orders.service.ts';

/** `batches`: the module's group commit of orders. */
export const ordersRoutes: FastifyPluginAsyncZod<{ db: Db; batches: OrderBatches }> = async (app, { db, batches }) => {
  const tags = ['exchange'];
  const errors = { '4xx': errorResponse };

  app.post(
    '/placeOrder',
    {
      config: { access: 'member', scope: 'trade' },
      schema: {
        summary: 'Place a buy or sell order; it escrows funds and matches by price-time priority',
        tags,
        body: placeOrderRequest,
        response: { 200: placeOrderResponse, ...errors },
      },
    },
    // With an Idempotency-Key the order goes alone, in the key's transaction; without, with the next batch.
    (req) =>
      moneyMovingBatched(db, req, batches, 'orders', { member: requireAuth(req), input: req.body }, (tx, changes) =>
        orders.placeOrder(tx, requireAuth(req), req.body, changes),
      ),
  );

  app.post(
    '/cancelOrder',
    {
      config: { access: 'member', scope: 'trade' },
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
    '/cancelAllOrders',
    {
      config: { access: 'member', scope: 'trade' },
      schema: {
        summary: "Cancel all the caller's open orders, or those of one pair, returning their escrow",
        tags,
        body: cancelAllOrdersRequest,
        response: { 200: cancelAllOrdersResponse, ...errors },
      },
    },
    (req) =>
      moneyMoving(db, req, (tx, changes) => orders.cancelAllOrders(tx, requireAuth(req), req.body.pair, changes)),
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
};
