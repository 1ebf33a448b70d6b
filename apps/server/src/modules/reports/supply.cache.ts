/**
 * Supply history answers shared by every viewer: a currency's supply history is the same for everyone and
 * moves with every mint and burn, so each answer (366 hourly points summed from the rollup) is built once
 * and served for up to `RESPONSE_TTL_MS` (1 s), and dropped at once when a currency changes (its precision
 * or name) here or on another replica.
 */
import {
  type SupplyHistoriesQuery,
  type SupplyHistoryQuery,
  supplyHistoriesResponse,
  supplyHistoryResponse,
} from '@starlight/shared';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { clearOnCurrencyChange } from '../../lib/live-changes.ts';
import { type JsonBody, ResponseCache, serializeAnswer } from '../../lib/response-cache.ts';
import * as reports from './reports.service.ts';

/** The kept supply history answers of one process. */
export interface SupplyAnswers {
  /** The supplyHistory body (JSON) for `q`. Throws NOT_FOUND for an unknown currency (never kept). */
  get(q: SupplyHistoryQuery): Promise<JsonBody>;
  /** The supplyHistories body (JSON) for `q`: every currency's. */
  all(q: SupplyHistoriesQuery): Promise<JsonBody>;
  /** Stops listening for changes. */
  stop(): void;
}

/** Starts `app`'s kept supply history answers. */
export function startSupplyAnswers(app: FastifyInstance, db: Db): SupplyAnswers {
  const cache = new ResponseCache<JsonBody>();
  const stop = clearOnCurrencyChange(app.live, cache);
  return {
    get: (q) =>
      cache.get(String(q.currencyId), `${q.interval}:${q.limit ?? ''}`, async () =>
        serializeAnswer(supplyHistoryResponse, await reports.supplyHistory(db, q)),
      ),
    all: (q) =>
      cache.get('*', `${q.interval}:${q.limit ?? ''}`, async () =>
        serializeAnswer(supplyHistoriesResponse, await reports.supplyHistories(db, q)),
      ),
    stop,
  };
}
