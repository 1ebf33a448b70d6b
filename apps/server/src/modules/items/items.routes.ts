/** Routes of /api/inventory's items (SPEC §7, DESIGN §7, §11.5): creating, changing and gifting them, and the lists. */
import {
  createItemRequest,
  errorResponse,
  getItemsRequest,
  getUserCollectionsRequest,
  getUserItemsGroupedRequest,
  getUserItemsRequest,
  giftItemRequest,
  groupedItemsResponse,
  itemResponse,
  itemsResponse,
  messageResponse,
  modifyItemRequest,
  userCollectionsResponse,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../http/access.ts';
import { withLiveChanges } from '../../http/money-moving.ts';
import type { KeptTotals } from '../../lib/kept-totals.ts';
import { giftItem } from './gifts.service.ts';
import * as items from './items.service.ts';
import type { CollectionTotals } from './items.totals.ts';

/** `totals`: collections' kept item totals; `ownTotals`: members' own. */
export const itemsRoutes: FastifyPluginAsyncZod<{ db: Db; totals: CollectionTotals; ownTotals: KeptTotals }> = async (
  app,
  { db, totals, ownTotals },
) => {
  const tags = ['inventory'];
  const errors = { '4xx': errorResponse };

  app.post(
    '/createItem',
    {
      config: { access: 'creator', scope: 'transfer' },
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
    '/modifyItem',
    {
      config: { access: 'creator', scope: 'transfer' },
      schema: {
        summary: "Change an item of one of the caller's collections (its creator only); the owner keeps it",
        tags,
        body: modifyItemRequest,
        response: { 200: itemResponse, ...errors },
      },
    },
    (req) => withLiveChanges(app.live.changes, (changes) => items.modifyItem(db, requireAuth(req), req.body, changes)),
  );

  app.post(
    '/giftItem',
    {
      config: { access: 'member', scope: 'transfer' },
      schema: {
        summary: 'Give one of your items to another member by nickname; they are notified',
        tags,
        body: giftItemRequest,
        response: { 200: messageResponse, ...errors },
      },
    },
    (req) => withLiveChanges(app.live.changes, (changes) => giftItem(db, requireAuth(req), req.body, changes)),
  );

  app.post(
    '/getItems',
    {
      config: { access: 'member', scope: 'read' },
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
      config: { access: 'member', scope: 'read' },
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
      config: { access: 'member', scope: 'read' },
      schema: {
        summary: "The caller's items of a collection, grouped by name with their count",
        tags,
        body: getUserItemsGroupedRequest,
        response: { 200: groupedItemsResponse, ...errors },
      },
    },
    (req) => items.getUserItemsGrouped(db, requireAuth(req), req.body, ownTotals),
  );

  app.post(
    '/getUserCollections',
    {
      config: { access: 'member', scope: 'read' },
      schema: {
        summary: 'The collections the caller holds items of, by name, with how many',
        tags,
        body: getUserCollectionsRequest,
        response: { 200: userCollectionsResponse, ...errors },
      },
    },
    (req) => items.getUserCollections(db, requireAuth(req)),
  );
};
