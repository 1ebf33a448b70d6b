/**
 * Currencies as read pages need them (their ticker and precision), kept per process: the
 * leaderboard read its currency's row on every request, one more round trip to PostgreSQL than the
 * ranking itself. A currency changes rarely and every change names it in the live changes
 * (`LiveChanges.touchCurrency`), so its kept row is dropped at once on the replica that changed it and
 * when the bus brings the change to the others; it is also read afresh after `RESPONSE_TTL_MS` (1 s).
 * Writes never use these rows: rules that money depends on (taxes, frozen) are read in their transaction.
 */
import { currenciesResponse } from '@starlight/shared';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { clearOnCurrencyChange, watchChanges } from '../../lib/live-changes.ts';
import { type JsonBody, ResponseCache, serializeAnswer } from '../../lib/response-cache.ts';
import type { CurrencyRow } from './currencies.queries.ts';
import { listCurrencies, requireCurrency } from './currencies.service.ts';

/** The kept currencies of one process. */
export interface KeptCurrencies {
  /** The currency `currencyId` as read at most a second ago. Throws NOT_FOUND `Currency not found`. */
  get(currencyId: number): Promise<CurrencyRow>;
  /** Stops listening for changes. */
  stop(): void;
}

/** Starts `app`'s kept currencies. */
export function startKeptCurrencies(app: FastifyInstance, db: Db): KeptCurrencies {
  const cache = new ResponseCache<CurrencyRow>();
  const stop = watchChanges(app.live, (changed) => {
    for (const c of changed.currencies) cache.invalidate(String(c));
  });
  return {
    get: (currencyId) => cache.get(String(currencyId), '', () => requireCurrency(db, currencyId)),
    stop,
  };
}

/** The public currency list's answer, kept per process (`startCurrencyListAnswer`). */
export interface CurrencyListAnswer {
  /** The `GET /api/bank/currencies` body (JSON). Throws what the read throws. */
  get(): Promise<JsonBody>;
  /** Stops listening for changes. */
  stop(): void;
}

/**
 * Starts `app`'s kept answer of the public currency list (SPEC §7), the same for every caller: built once
 * and served for up to `RESPONSE_TTL_MS` (1 s), dropped at once when any currency changes here or on
 * another replica (the live changes), as the kept rows above are. It was read and planned afresh on every
 * visitor's request.
 */
export function startCurrencyListAnswer(app: FastifyInstance, db: Db): CurrencyListAnswer {
  const cache = new ResponseCache<JsonBody>();
  const stop = clearOnCurrencyChange(app.live, cache);
  return {
    get: () =>
      cache.get('currencies', '', async () => {
        const list = await listCurrencies(db);
        return serializeAnswer(currenciesResponse, { currencies: list, message: `Got ${list.length} currencies` });
      }),
    stop,
  };
}
