/** Routes of /api/inventory's collections (SPEC §7, DESIGN §7): creating and changing one, and the list. */
import {
  collectionResponse,
  collectionsResponse,
  createCollectionRequest,
  errorResponse,
  modifyCollectionRequest,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../http/access.ts';
import { sendJson } from '../../lib/response-cache.ts';
import type { CollectionAnswers } from './collections.cache.ts';
import * as items from './items.service.ts';

/** `collections`: the module's kept collection list visitors read, dropped by a new or changed collection. */
export const collectionsRoutes: FastifyPluginAsyncZod<{ db: Db; collections: CollectionAnswers }> = async (
  app,
  { db, collections },
) => {
  const tags = ['inventory'];
  const errors = { '4xx': errorResponse };

  app.post(
    '/createCollection',
    {
      config: { access: 'creator', scope: 'transfer' },
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
    '/modifyCollection',
    {
      config: { access: 'creator', scope: 'transfer' },
      schema: {
        summary: "Change one of the caller's collections: name, description, image, app URLs (its creator only)",
        tags,
        body: modifyCollectionRequest,
        response: { 200: collectionResponse, ...errors },
      },
    },
    (req) => items.modifyCollection(db, requireAuth(req), req.body).finally(() => collections.clear()),
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
};
