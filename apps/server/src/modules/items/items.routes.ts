/** Routes of /api/inventory for collections and items (SPEC §7, DESIGN §7). Thin: schema, access, one call. */
import {
  collectionResponse,
  collectionsResponse,
  createCollectionRequest,
  createItemRequest,
  errorResponse,
  getItemsRequest,
  getUserItemsGroupedRequest,
  getUserItemsRequest,
  groupedItemsResponse,
  itemResponse,
  itemsResponse,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../http/access.ts';
import { withLiveChanges } from '../../http/money-moving.ts';
import { startMemberTotals } from '../../lib/kept-totals.ts';
import { sendJson } from '../../lib/response-cache.ts';
import { startCollectionAnswers } from './collections.cache.ts';
import * as items from './items.service.ts';
import { startCollectionTotals } from './items.totals.ts';

export const itemsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  // Collections' item totals, kept until their items change (items.totals.ts).
  const totals = startCollectionTotals(app);
  app.addHook('onClose', async () => totals.stop());
  // Members' own item totals, kept until their next change (lib/kept-totals.ts).
  const ownTotals = startMemberTotals(app);
  app.addHook('onClose', async () => ownTotals.stop());
  const tags = ['inventory'];
  const errors = { '4xx': errorResponse };
  // The collection list visitors read, kept per process (issue 19 §2); a new collection drops it.
  const collections = startCollectionAnswers(db);

  app.post(
    '/createCollection',
    {
      config: { access: 'creator' },
      schema: {
        summary: 'Create an item collection, with the app URLs a consent request may name (creator or admin)',
        tags,
        body: createCollectionRequest,
        response: { 200: collectionResponse, ...errors },
      },
    },
    (req) => items.createCollection(db, requireAuth(req), req.body).finally(() => collections.clear()),
  );

  app.post(
    '/getCollections',
    {
      config: { access: 'public' },
      schema: {
        summary: "Every item collection, and the caller's own with their app URLs",
        tags,
        response: { 200: collectionsResponse, ...errors },
      },
    },
    async (req, reply) => {
      if (!req.auth) return sendJson(reply, collections.forVisitor());
      return items.getCollections(db, req.auth);
    },
  );

  app.post(
    '/createItem',
    {
      config: { access: 'creator' },
      schema: {
        summary: "Add an item to one of the caller's collections, owned by a member",
        tags,
        body: createItemRequest,
        response: { 200: itemResponse, ...errors },
      },
    },
    (req) => withLiveChanges(app.live.changes, (changes) => items.createItem(db, requireAuth(req), req.body, changes)),
  );

  app.post(
    '/getItems',
    {
      config: { access: 'member' },
      schema: {
        summary: "A collection's items (hidden data only for its creator)",
        tags,
        body: getItemsRequest,
        response: { 200: itemsResponse, ...errors },
      },
    },
    (req) => items.getItems(db, requireAuth(req), req.body, totals),
  );

  app.post(
    '/getUserItems',
    {
      config: { access: 'member' },
      schema: {
        summary: "The caller's items, newest first",
        tags,
        body: getUserItemsRequest,
        response: { 200: itemsResponse, ...errors },
      },
    },
    (req) => items.getUserItems(db, requireAuth(req), req.body, ownTotals),
  );

  app.post(
    '/getUserItemsGrouped',
    {
      config: { access: 'member' },
      schema: {
        summary: "The caller's items of a collection, grouped by name with their count",
        tags,
        body: getUserItemsGroupedRequest,
        response: { 200: groupedItemsResponse, ...errors },
      },
    },
    (req) => items.getUserItemsGrouped(db, requireAuth(req), req.body, ownTotals),
  );
};
