/** Routes of /api/bank's currencies (SPEC §7 Bank): the list, creating and changing one. */
import {
  createCurrencyRequest,
  currenciesResponse,
  currencyResponse,
  errorResponse,
  modifyCurrencyRequest,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../http/access.ts';
import { withLiveChanges } from '../../http/money-moving.ts';
import { sendJson } from '../../lib/response-cache.ts';
import type { CurrencyListAnswer } from './currencies.cache.ts';
import * as currencies from './currencies.service.ts';

/** `currencyList`: the module's kept public currency list. */
export const currenciesRoutes: FastifyPluginAsyncZod<{ db: Db; currencyList: CurrencyListAnswer }> = async (
  app,
  { db, currencyList },
) => {
  const tags = ['bank'];
  const errors = { '4xx': errorResponse };

  app.get(
    '/currencies',
    {
      config: { access: 'public' },
      schema: { summary: 'Every currency with its rules and taxes', tags, response: { 200: currenciesResponse } },
    },
    (_req, reply) => sendJson(reply, currencyList.get()),
  );

  app.post(
    '/createCurrency',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Create a currency; the server assigns its currencyId (admin)',
        tags,
        body: createCurrencyRequest,
        response: { 200: currencyResponse, ...errors },
      },
    },
    async (req) => {
      const currency = await withLiveChanges(app.live.changes, (changes) =>
        currencies.createCurrency(db, requireAuth(req), req.body, req.ip, changes),
      );
      return { currency, message: `Currency ${currency.ticker} created` };
    },
  );

  app.post(
    '/modifyCurrency',
    {
      config: { access: 'admin' },
      schema: {
        summary: "Change any of a currency's fields but its ticker (admin)",
        tags,
        body: modifyCurrencyRequest,
        response: { 200: currencyResponse, ...errors },
      },
    },
    async (req) => {
      const currency = await withLiveChanges(app.live.changes, (changes) =>
        currencies.modifyCurrency(db, requireAuth(req), req.body, req.ip, changes),
      );
      return { currency, message: `Currency ${currency.ticker} modified` };
    },
  );
};
