/** Routes of /api/checkout's packages (SPEC §7 Checkout, DESIGN §7): the list, and an admin's changes. */
import {
  createPackageRequest,
  errorResponse,
  packageIdRequest,
  packageResponse,
  packagesResponse,
  setPackageActiveRequest,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/access.ts';
import * as checkout from './checkout.service.ts';
import * as packages from './packages.service.ts';

export const packagesRoutes: FastifyPluginAsyncZod<{ deps: checkout.CheckoutDeps }> = async (app, { deps }) => {
  const { db } = deps;
  const tags = ['checkout'];
  const errors = { '4xx': errorResponse };

  app.get(
    '/packages/fetch',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'fetchPackages',
        summary: 'Credits packages on sale (an admin gets every package), and the payment providers a purchase can use',
        tags,
        response: { 200: packagesResponse, ...errors },
      },
    },
    (req) => packages.fetchPackages(db, req.auth, checkout.availableProviders(deps)),
  );

  app.post(
    '/packages/create',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'createPackage',
        summary: 'Create a Credits package, unpublished (admin)',
        tags,
        body: createPackageRequest,
        response: { 200: packageResponse, ...errors },
      },
    },
    (req) => packages.createPackage(db, requireAuth(req), req.body, req.ip),
  );

  app.post(
    '/packages/delete',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'deletePackage',
        summary: 'Delete a Credits package (admin)',
        tags,
        body: packageIdRequest,
        response: { 200: packageResponse, ...errors },
      },
    },
    (req) => packages.deletePackage(db, requireAuth(req), req.body.objectId, req.ip),
  );

  app.post(
    '/packages/publish',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'publishPackage',
        summary: 'Publish a Credits package, once and for good (admin)',
        tags,
        body: packageIdRequest,
        response: { 200: packageResponse, ...errors },
      },
    },
    (req) => packages.publishPackage(db, requireAuth(req), req.body.objectId, req.ip),
  );

  app.post(
    '/packages/setactive',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'setPackageActive',
        summary: 'Put a Credits package on sale or take it off (admin)',
        tags,
        body: setPackageActiveRequest,
        response: { 200: packageResponse, ...errors },
      },
    },
    (req) => packages.setPackageActive(db, requireAuth(req), req.body, req.ip),
  );
};
