/** Routes of /api/market (DESIGN §11.5). Thin: schema, access, one service call. */
import {
  createListingRequest,
  errorResponse,
  listingIdRequest,
  listingResponse,
  listingsByItemRequest,
  listingsByItemResponse,
  listingsRequest,
  listingsResponse,
  myListingsRequest,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import { requireAuth } from '../../http/access.ts';
import { moneyMoving } from '../../http/money-moving.ts';
import * as market from './market.service.ts';

export const marketRoutes: FastifyPluginAsyncZod<{ db: Db; readDb: Db }> = async (app, { db, readDb }) => {
  const tags = ['market'];
  const errors = { '4xx': errorResponse };
  const trading = { access: 'member' as const, scope: 'trade' as const };

  app.post(
    '/createListing',
    {
      config: trading,
      schema: {
        summary: 'List one of your items for a price in a transferable currency',
        tags,
        body: createListingRequest,
        response: { 200: listingResponse, ...errors },
      },
    },
    (req) => inTransaction(db, (tx) => market.createListing(tx, requireAuth(req), req.body)),
  );

  app.post(
    '/cancelListing',
    {
      config: trading,
      schema: {
        summary: 'Cancel one of your open listings; the item is free again',
        tags,
        body: listingIdRequest,
        response: { 200: listingResponse, ...errors },
      },
    },
    (req) => inTransaction(db, (tx) => market.cancelListing(tx, requireAuth(req), req.body.listingId)),
  );

  app.post(
    '/buy',
    {
      config: trading,
      schema: {
        summary: 'Buy an open listing: the price goes to the seller and the royalty to the creator (Idempotency-Key)',
        tags,
        body: listingIdRequest,
        response: { 200: listingResponse, ...errors },
      },
    },
    (req) =>
      moneyMoving(db, req, (tx, changes) => market.buyListing(tx, requireAuth(req), req.body.listingId, changes)),
  );

  app.post(
    '/listings',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Open listings, filtered by collection, name or currency, newest first or by price',
        tags,
        body: listingsRequest,
        response: { 200: listingsResponse, ...errors },
      },
    },
    (req) => market.listListings(readDb, req.body),
  );

  app.post(
    '/listingsByItem',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Every open listing grouped by item name and currency: the lowest price and the count, by name',
        tags,
        body: listingsByItemRequest,
        response: { 200: listingsByItemResponse, ...errors },
      },
    },
    (req) => market.listingsByItem(readDb, req.body),
  );

  app.post(
    '/myListings',
    {
      config: { access: 'member', scope: 'read' },
      schema: {
        summary: 'Your listings, every state, newest first',
        tags,
        body: myListingsRequest,
        response: { 200: listingsResponse, ...errors },
      },
    },
    (req) => market.myListings(db, requireAuth(req), req.body.paging),
  );
};
