/** Routes of /api/bank (SPEC §7 Bank). Thin: schema, access, one service call. */
import {
  allTransactionsRequest,
  auditQuery,
  auditResponse,
  createCurrencyRequest,
  currenciesResponse,
  currencyResponse,
  currencyStatsRequest,
  currencyStatsResponse,
  distributeCurrencyRequest,
  distributeCurrencyResponse,
  errorResponse,
  messageResponse,
  mintRequest,
  modifyCurrencyRequest,
  p2pTransferRequest,
  p2pTransferResponse,
  supplyHistoryRequest,
  supplyHistoryResponse,
  transactionsRequest,
  transactionsResponse,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../http/access.ts';
import { inLiveTransaction, moneyMoving, moneyMovingBatched, withLiveChanges } from '../../http/money-moving.ts';
import { GroupCommit } from '../../lib/group-commit.ts';
import { startMemberTotals } from '../../lib/kept-totals.ts';
import { sendJson } from '../../lib/response-cache.ts';
import { startAuditCheck } from './audit.check.ts';
import { startCurrencyListAnswer } from './currencies.cache.ts';
import { startCurrenciesLive } from './currencies.live.ts';
import * as currencies from './currencies.service.ts';
import * as reports from './reports.service.ts';
import { startLedgerRollup } from './rollup.queries.ts';
import { startSupplyAnswers } from './supply.cache.ts';
import * as transfers from './transfers.service.ts';

/** `readDb` serves the lag-tolerant reads (issue 21 §2): all transactions, currency stats, supply history. */
export const bankRoutes: FastifyPluginAsyncZod<{ db: Db; readDb: Db }> = async (app, { db, readDb }) => {
  const tags = ['bank'];
  const errors = { '4xx': errorResponse };
  const stopLive = startCurrenciesLive(app, db);
  app.addHook('onClose', async () => stopLive());
  // Supply history answers, built once and shared by every viewer for up to a second (supply.cache.ts).
  const supplyAnswers = startSupplyAnswers(app, readDb);
  app.addHook('onClose', async () => supplyAnswers.stop());
  // The public currency list, likewise (currencies.cache.ts).
  const currencyList = startCurrencyListAnswer(app, db);
  app.addHook('onClose', async () => currencyList.stop());
  // Members' own history totals, kept until their next change (lib/kept-totals.ts).
  const historyTotals = startMemberTotals(app);
  app.addHook('onClose', async () => historyTotals.stop());
  // The ledger rollup behind currency stats, supply history and the audit (issue 19 §2): kept every 2 s.
  const rollup = startLedgerRollup(db, app.log);
  app.addHook('onClose', async () => rollup.stop());
  // The audit's conservation check (the pass over the balances), taken every 30 s by one replica.
  const auditCheck = startAuditCheck(db, app.log);
  app.addHook('onClose', async () => auditCheck.stop());
  // Transfers without an Idempotency-Key are written in batches (group commit, DESIGN §9): those that
  // arrive while the previous batch is written go together in one transaction. One lane: two lanes (by
  // sender) wrote smaller batches, at a third more CPU per transfer, and 0.12 lower a ratio (issue 20).
  const transferBatches = new GroupCommit<transfers.TransferJob, transfers.TransferResult>(
    (_lane, jobs, commit) =>
      inLiveTransaction(db, app.live.changes, (tx, changes) => transfers.p2pTransfers(tx, jobs, changes), {
        commitBehindLast: true,
        ...commit,
      }),
    32,
  );
  // Admin mints and burns without an Idempotency-Key, the same way, in one lane.
  const mintBatches = new GroupCommit<transfers.MintJob, { message: string }>(
    (_lane, jobs, commit) =>
      inLiveTransaction(db, app.live.changes, (tx, changes) => transfers.mintOrBurnBatch(tx, jobs, changes), {
        commitBehindLast: true,
        ...commit,
      }),
    32,
  );

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

  app.post(
    '/p2pTransfer',
    {
      config: { access: 'member' },
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
      return moneyMovingBatched(db, req, transferBatches, 'transfer', { sender, input: req.body }, (tx, changes) =>
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
          mintBatches,
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
      config: { access: 'member' },
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

  app.post(
    '/transactions',
    {
      config: { access: 'member' },
      schema: {
        summary: "The caller's own ledger rows, newest first, filtered and paged",
        tags,
        body: transactionsRequest,
        response: { 200: transactionsResponse, ...errors },
      },
    },
    (req) => reports.listTransactions(db, requireAuth(req).id, req.body, historyTotals),
  );

  app.post(
    '/alltransactions',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Every ledger row, newest first, filtered and paged (admin)',
        tags,
        body: allTransactionsRequest,
        response: { 200: transactionsResponse, ...errors },
      },
    },
    (req) => reports.listTransactions(readDb, undefined, req.body, historyTotals),
  );

  app.post(
    '/currencyStats',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Per currency and category: totals, counts and circulating supply in a date range (admin)',
        tags,
        body: currencyStatsRequest,
        response: { 200: currencyStatsResponse, ...errors },
      },
    },
    async (req) => {
      const currencyStats = await reports.currencyStats(readDb, req.body);
      return { currencyStats, message: `Got ${currencyStats.length} currency stats` };
    },
  );

  app.post(
    '/supplyHistory',
    {
      config: { access: 'public' },
      schema: {
        summary: "A currency's supply and circulating amount over time, one point per hour or day",
        tags,
        body: supplyHistoryRequest,
        response: { 200: supplyHistoryResponse, ...errors },
      },
    },
    (req, reply) => sendJson(reply, supplyAnswers.get(req.body)),
  );

  app.get(
    '/audit',
    {
      config: { access: 'admin' },
      schema: {
        summary:
          'Conservation check per currency: balances plus escrow equal issued minus removed, with tamper checks; full=true recounts the whole ledger (admin)',
        tags,
        querystring: auditQuery,
        response: { 200: auditResponse, ...errors },
      },
    },
    (req) => reports.audit(db, { full: req.query.full === 'true' }),
  );
};
