/** Routes of /api/capp: creator-app consent (DESIGN §7). Thin: schema, access, one call. */
import {
  cappUserItemsRequest,
  cappUserItemsResponse,
  createAuthRequestRequest,
  createAuthRequestResponse,
  errorResponse,
  getAuthRequestRequest,
  getAuthRequestResponse,
  redeemCodeRequest,
  redeemCodeResponse,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../http/access.ts';
import * as capp from './capp.service.ts';

export const cappRoutes: FastifyPluginAsyncZod<{ db: Db; publicUrl: string }> = async (app, { db, publicUrl }) => {
  const tags = ['capp'];
  const errors = { '4xx': errorResponse };

  app.post(
    '/createAuthRequest',
    {
      config: { access: 'creator', scope: 'read' },
      schema: {
        summary: "A creator app asks a member to let it read their items in the creator's collection",
        tags,
        body: createAuthRequestRequest,
        response: { 200: createAuthRequestResponse, ...errors },
      },
    },
    (req) => capp.createAuthRequest({ db, publicUrl }, requireAuth(req), req.body),
  );

  app.post(
    '/getAuthRequest',
    {
      config: { access: 'public' },
      schema: {
        summary: 'What a consent request asks, for the page the member signs in on',
        tags,
        body: getAuthRequestRequest,
        response: { 200: getAuthRequestResponse, ...errors },
      },
    },
    (req) => capp.getAuthRequest(db, req.body.requestId),
  );

  app.post(
    '/redeemCode',
    {
      config: { access: 'creator', scope: 'read' },
      schema: {
        summary: "Redeem a consent's single-use code for the member who granted it",
        tags,
        body: redeemCodeRequest,
        response: { 200: redeemCodeResponse, ...errors },
      },
    },
    (req) => capp.redeemCode(db, requireAuth(req), req.body.code),
  );

  app.post(
    '/getUserItems',
    {
      config: { access: 'creator', scope: 'read' },
      schema: {
        // /api/inventory/getUserItems is the member's own call: this one is named apart.
        operationId: 'getCreatorAppUserItems',
        summary: "A granting member's items in the creator's own collection",
        tags,
        body: cappUserItemsRequest,
        response: { 200: cappUserItemsResponse, ...errors },
      },
    },
    (req) => capp.getUserItems(db, requireAuth(req), req.body),
  );
};
