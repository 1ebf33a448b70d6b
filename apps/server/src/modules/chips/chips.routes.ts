/** Routes of /api/inventory for synth chips (DESIGN §7). Thin: schema, access, one service call. */
import {
  buySynthChipsResponse,
  chipAmountRequest,
  dropTableResponse,
  errorResponse,
  openSynthChipsResponse,
  synthChipsResponse,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../http/access.ts';
import { moneyMovingBatched } from '../../http/money-moving.ts';
import type { ChipBatches } from './chips.batches.ts';
import * as chips from './chips.service.ts';

/** `batches`: the module's group commits of purchases and of openings. */
export const chipsRoutes: FastifyPluginAsyncZod<{ db: Db; batches: ChipBatches }> = async (app, { db, batches }) => {
  const tags = ['inventory'];
  const errors = { '4xx': errorResponse };

  app.get(
    '/synthChips',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Synth chips left on sale and their price in Credits',
        tags,
        response: { 200: synthChipsResponse, ...errors },
      },
    },
    () => chips.synthChips(db),
  );

  app.get(
    '/dropTable',
    {
      config: { access: 'public' },
      schema: {
        summary: 'The rarities a synth chip draws ships from, with their odds',
        tags,
        response: { 200: dropTableResponse, ...errors },
      },
    },
    () => chips.dropTable(),
  );

  app.post(
    '/buySynthChips',
    {
      config: { access: 'member', scope: 'transfer' },
      schema: {
        summary: 'Buy 1 to 100 synth chips for 500 Credits each; never oversold',
        tags,
        body: chipAmountRequest,
        response: { 200: buySynthChipsResponse, ...errors },
      },
    },
    (req) => {
      const member = requireAuth(req);
      return moneyMovingBatched(db, req, batches.buys, 'sale', { member, input: req.body }, (tx, changes) =>
        chips.buySynthChips(tx, member, req.body, changes),
      );
    },
  );

  app.post(
    '/openSynthChips',
    {
      config: { access: 'member', scope: 'transfer' },
      schema: {
        summary: 'Open 1 to 100 synth chips: 5 ship items each, drawn from the drop table',
        tags,
        body: chipAmountRequest,
        response: { 200: openSynthChipsResponse, ...errors },
      },
    },
    (req) => {
      const member = requireAuth(req);
      return moneyMovingBatched(db, req, batches.opens, 'open', { member, input: req.body }, (tx, changes) =>
        chips.openSynthChips(tx, member, req.body, changes),
      );
    },
  );
};
