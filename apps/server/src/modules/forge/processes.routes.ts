/** Routes of /api/forge's processes (SPEC §7 Forge, DESIGN §6): starting, ending and listing them. */
import {
  endProcessRequest,
  errorResponse,
  forgeProcessesResponse,
  getForgeProcessesAllRequest,
  getForgeProcessesRequest,
  processesCsvQuery,
  processResponse,
  startProcessRequest,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../http/access.ts';
import { moneyMovingBatched } from '../../http/money-moving.ts';
import { csvFileName, sendCsv } from '../../lib/csv-export.ts';
import type { KeptTotals } from '../../lib/kept-totals.ts';
import { csvExportLimit } from '../../plugins/rate-limit.ts';
import type { ProcessBatches } from './processes.batches.ts';
import * as processes from './processes.service.ts';
import { PROCESS_COLUMNS, processPages } from './processes-export.service.ts';

/**
 * `batches`: the module's group commits of starts and of ends; `ownTotals`: members' kept process totals;
 * `readDb` serves the admin's list of every forge process (lag-tolerant).
 */
export const processesRoutes: FastifyPluginAsyncZod<{
  db: Db;
  readDb: Db;
  batches: ProcessBatches;
  ownTotals: KeptTotals;
}> = async (app, { db, readDb, batches, ownTotals }) => {
  const tags = ['forge'];
  const errors = { '4xx': errorResponse };

  app.post(
    '/startProcess',
    {
      config: { access: 'member', scope: 'transfer' },
      schema: {
        summary: "Start forging: the recipe's input times quantity is taken now",
        tags,
        body: startProcessRequest,
        response: { 200: processResponse, ...errors },
      },
    },
    (req) => {
      const member = requireAuth(req);
      return moneyMovingBatched(db, req, batches.starts, 'start', { member, input: req.body }, (tx, changes) =>
        processes.startProcess(tx, member, req.body, changes),
      );
    },
  );

  app.post(
    '/endProcess',
    {
      config: { access: 'member', scope: 'transfer' },
      schema: {
        summary: 'Claim a finished process, or cancel one in its first 10 minutes (input paid back)',
        tags,
        body: endProcessRequest,
        response: { 200: processResponse, ...errors },
      },
    },
    (req) => {
      const member = requireAuth(req);
      return moneyMovingBatched(db, req, batches.ends, 'end', { member, input: req.body }, (tx, changes) =>
        processes.endProcess(tx, member, req.body, changes),
      );
    },
  );

  app.post(
    '/getForgeProcesses',
    {
      config: { access: 'member', scope: 'read' },
      schema: {
        summary: "The caller's forge processes, newest first",
        tags,
        body: getForgeProcessesRequest,
        response: { 200: forgeProcessesResponse, ...errors },
      },
    },
    (req) => processes.getForgeProcesses(db, requireAuth(req), req.body, ownTotals),
  );

  app.post(
    '/getForgeProcessesAll',
    {
      config: { access: 'admin' },
      schema: {
        summary: "Every member's forge processes with filters, newest first (admin)",
        tags,
        body: getForgeProcessesAllRequest,
        response: { 200: forgeProcessesResponse, ...errors },
      },
    },
    (req) => processes.getForgeProcessesAll(readDb, req.body),
  );

  app.get(
    '/processes.csv',
    {
      config: { access: 'admin', downloadLink: true, rateLimit: csvExportLimit() },
      schema: {
        summary:
          'Every forge process matching the Forge Process Logs filters, as CSV, newest first (admin, DESIGN §11.6)',
        tags,
        querystring: processesCsvQuery,
        response: errors,
      },
    },
    (req, reply) => {
      sendCsv(req, reply, csvFileName('forge-processes'), PROCESS_COLUMNS, processPages(readDb, req.query));
    },
  );
};
