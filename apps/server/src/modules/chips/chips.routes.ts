/** Routes of /api/inventory for synth chips (DESIGN §7). Thin: schema, access, one service call. */
import {
  type BuySynthChipsResponse,
  buySynthChipsResponse,
  chipAmountRequest,
  dropTableResponse,
  errorResponse,
  type OpenSynthChipsResponse,
  openSynthChipsResponse,
  synthChipsResponse,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../http/access.ts';
import { inLiveTransaction, moneyMovingBatched } from '../../http/money-moving.ts';
import { GroupCommit } from '../../lib/group-commit.ts';
import * as chips from './chips.service.ts';

export const chipsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const tags = ['inventory'];
  const errors = { '4xx': errorResponse };
  // Purchases without an Idempotency-Key are written in batches (group commit, DESIGN §9): every one
  // moves the sale's two balance rows, so those that arrive while a batch is written go in the next one.
  const buyBatches = new GroupCommit<chips.BuyJob, BuySynthChipsResponse>(
    (_lane, jobs, commit) =>
      inLiveTransaction(db, app.live.changes, (tx, changes) => chips.buySynthChipsBatch(tx, jobs, changes), {
        commitBehindLast: true,
        ...commit,
      }),
    32,
  );
  // Openings without an Idempotency-Key, the same way, in one lane (as transfers: bigger batches).
  const openBatches = new GroupCommit<chips.OpenJob, OpenSynthChipsResponse>(
    (_lane, jobs, commit) =>
      inLiveTransaction(db, app.live.changes, (tx, changes) => chips.openSynthChipsBatch(tx, jobs, changes), {
        commitBehindLast: true,
        ...commit,
      }),
    32,
  );

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
      config: { access: 'member' },
      schema: {
        summary: 'Buy 1 to 100 synth chips for 500 Credits each; never oversold',
        tags,
        body: chipAmountRequest,
        response: { 200: buySynthChipsResponse, ...errors },
      },
    },
    (req) => {
      const member = requireAuth(req);
      return moneyMovingBatched(db, req, buyBatches, 'sale', { member, input: req.body }, (tx, changes) =>
        chips.buySynthChips(tx, member, req.body, changes),
      );
    },
  );

  app.post(
    '/openSynthChips',
    {
      config: { access: 'member' },
      schema: {
        summary: 'Open 1 to 100 synth chips: 5 ship items each, drawn from the drop table',
        tags,
        body: chipAmountRequest,
        response: { 200: openSynthChipsResponse, ...errors },
      },
    },
    (req) => {
      const member = requireAuth(req);
      return moneyMovingBatched(db, req, openBatches, 'open', { member, input: req.body }, (tx, changes) =>
        chips.openSynthChips(tx, member, req.body, changes),
      );
    },
  );
};
