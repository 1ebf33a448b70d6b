/**
 * Live currencies (DESIGN §5): when an admin creates or changes a currency, every socket of every server
 * process, signed in or not (currencies are public, SPEC §7), gets a `currencies` message with the
 * currency as `GET /api/bank/currencies` lists it, so an open page's currency list (kept a day in the
 * browser, SPEC §4) shows it without a reload. The change reaches every process through the bus's
 * change events (`LiveChanges.touchCurrency`), never through state of one process (DESIGN §1).
 */
import type { Currency } from '@starlight/shared';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { subscribeToChanges } from '../../lib/live-changes.ts';
import { findCurrency } from './currencies.queries.ts';
import { toCurrencyDto } from './currencies.service.ts';

/** How long changes are merged before the currencies are loaded and pushed (milliseconds). */
const FLUSH_MS = 10;

/** Wires live currencies into the live hub of `app` (the bank's routes start it). Returns the function that stops it. */
export function startCurrenciesLive(app: FastifyInstance, db: Db): () => void {
  const { hub, bus } = app.live;
  return subscribeToChanges(
    bus,
    FLUSH_MS,
    async ({ currencies }) => {
      if (currencies.length === 0 || hub.clients.size === 0) return;
      const changed: Currency[] = [];
      for (const id of currencies) {
        const row = await findCurrency(db, id);
        if (row) changed.push(toCurrencyDto(row));
      }
      if (changed.length === 0) return;
      for (const client of hub.clients) client.send({ type: 'currencies', currencies: changed });
    },
    (err) => app.log.warn({ err }, 'live currencies push failed'),
  );
}
