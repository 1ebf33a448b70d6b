/** Routes of /api/bank's ledger reports (SPEC §7 Bank): the transaction lists, currency stats, supply history. */
import {
  allTransactionsRequest,
  currencyStatsRequest,
  currencyStatsResponse,
  errorResponse,
  supplyHistoriesRequest,
  supplyHistoriesResponse,
  supplyHistoryRequest,
  supplyHistoryResponse,
  transactionsCsvQuery,
  transactionsRequest,
  transactionsResponse,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../http/access.ts';
import { csvFileName, sendCsv } from '../../lib/csv-export.ts';
import type { KeptTotals } from '../../lib/kept-totals.ts';
import { sendJson } from '../../lib/response-cache.ts';
import { csvExportLimit } from '../../plugins/rate-limit.ts';
import * as reports from './reports.service.ts';
import type { SupplyAnswers } from './supply.cache.ts';
import { TRANSACTION_COLUMNS, transactionPages } from './transactions-export.service.ts';

/**
 * `readDb` serves the lag-tolerant reads: all transactions, currency stats, supply history;
 * `historyTotals` keeps members' own history totals, `supplyAnswers` the shared supply history answers.
 */
export const reportsRoutes: FastifyPluginAsyncZod<{
  db: Db;
  readDb: Db;
  historyTotals: KeptTotals;
  supplyAnswers: SupplyAnswers;
}> = async (app, { db, readDb, historyTotals, supplyAnswers }) => {
  const tags = ['bank'];
  const errors = { '4xx': errorResponse };

  app.post(
    '/transactions',
    {
      config: { access: 'member', scope: 'read' },
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

  app.get(
    '/transactions.csv',
    {
      config: { access: 'member', scope: 'read', downloadLink: true, rateLimit: csvExportLimit() },
      schema: {
        summary: "The caller's own ledger rows as CSV, newest first, with the list's filters (DESIGN §11.6)",
        tags,
        querystring: transactionsCsvQuery,
        response: errors,
      },
    },
    (req, reply) => {
      const pages = transactionPages(db, requireAuth(req).id, req.query);
      sendCsv(req, reply, csvFileName('transactions'), TRANSACTION_COLUMNS, pages);
    },
  );

  app.get(
    '/alltransactions.csv',
    {
      config: { access: 'admin', downloadLink: true, rateLimit: csvExportLimit() },
      schema: {
        summary: 'Every ledger row as CSV, newest first, with the Tnx Logs filters (admin, DESIGN §11.6)',
        tags,
        querystring: transactionsCsvQuery,
        response: errors,
      },
    },
    (req, reply) => {
      const pages = transactionPages(readDb, undefined, req.query);
      sendCsv(req, reply, csvFileName('all-transactions'), TRANSACTION_COLUMNS, pages);
    },
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

  app.post(
    '/supplyHistories',
    {
      config: { access: 'public' },
      schema: {
        summary: "Every currency's supply and circulating amount over time, one point per hour or day",
        tags,
        body: supplyHistoriesRequest,
        response: { 200: supplyHistoriesResponse, ...errors },
      },
    },
    (req, reply) => sendJson(reply, supplyAnswers.all(req.body)),
  );
};
