/** Routes of /api/bank that move money (SPEC §7 Bank): transfers, mints and burns, distributions. */
import {
  distributeCurrencyRequest,
  distributeCurrencyResponse,
  errorResponse,
  messageResponse,
  mintRequest,
  p2pTransferRequest,
  p2pTransferResponse,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../http/access.ts';
import { moneyMoving, moneyMovingBatched } from '../../http/money-moving.ts';
import type { TransferBatches } from './transfers.batches.ts';
import * as transfers from './transfers.service.ts';

/** `batches`: the module's group commits of transfers and of mints and burns without an Idempotency-Key. */
export const transfersRoutes: FastifyPluginAsyncZod<{ db: Db; batches: TransferBatches }> = async (
  app,
  { db, batches },
) => {
  const tags = ['bank'];
  const errors = { '4xx': errorResponse };

  app.post(
    '/p2pTransfer',
    {
      config: { access: 'member', scope: 'transfer' },
      schema: {
        summary: "Send an amount of a currency to a member by nickname, with the currency's transfer tax",
        tags,
        body: p2pTransferRequest,
        response: { 200: p2pTransferResponse, ...errors },
      },
    },
    // With an Idempotency-Key the transfer goes alone, in the key's transaction; without, with the next batch.
    (req) => {
      const sender = requireAuth(req);
      return moneyMovingBatched(db, req, batches.transfers, 'transfer', { sender, input: req.body }, (tx, changes) =>
        transfers.p2pTransfer(tx, sender, req.body, changes),
      );
    },
  );

  // Admin mint and burn (SPEC §7): one body, one rule each way.
  for (const kind of ['mint', 'burn'] as const) {
    app.post(
      `/${kind}`,
      {
        config: { access: 'admin' },
        schema: {
          summary:
            kind === 'mint'
              ? 'Mint an amount of a currency to a member, with a note (admin)'
              : 'Burn an amount of a currency from a member, with a note (admin)',
          tags,
          body: mintRequest,
          response: { 200: messageResponse, ...errors },
        },
      },
      (req) => {
        const admin = requireAuth(req);
        return moneyMovingBatched(
          db,
          req,
          batches.mints,
          'mint',
          { admin, kind, input: req.body, address: req.ip },
          (tx, changes) => transfers.mintOrBurn(tx, admin, kind, req.body, req.ip, changes),
        );
      },
    );
  }

  app.post(
    '/distributeCurrency',
    {
      config: { access: 'member', scope: 'transfer' },
      schema: {
        summary: 'Share an amount among the holders of another currency, pro rata in whole units',
        tags,
        body: distributeCurrencyRequest,
        response: { 200: distributeCurrencyResponse, ...errors },
      },
    },
    (req) =>
      moneyMoving(db, req, (tx, changes) => transfers.distributeCurrency(tx, requireAuth(req), req.body, changes)),
  );
};
