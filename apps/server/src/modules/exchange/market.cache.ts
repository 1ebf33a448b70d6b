/**
 * The exchange's public market answers (getOrders, getDepth, getTrades, getCandles), built once per
 * change of their pair and served to every viewer from `lib/response-cache.ts` (issue 19 §2: a busy
 * pair's book is 1,000 orders; building and serializing it per request held a visitor's answer at
 * hundreds of milliseconds). A pair's answers are dropped when this process commits a change of the pair,
 * when another replica's change is heard on the bus (the live feed's own lag, a few milliseconds), when a
 * currency changes (precision, names), and after a second in any case. Who may see a pair (hidden pairs:
 * admins only) is checked on every request against the pair row loaded with the answer.
 */
import {
  AppError,
  type CandleInterval,
  candlesResponse,
  depthResponse,
  getOrdersResponse,
  tradesResponse,
} from '@starlight/shared';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { isChangeEvent } from '../../lib/live-changes.ts';
import { ResponseCache, serializeAnswer } from '../../lib/response-cache.ts';
import * as market from './market.service.ts';
import { findPair, type PairRow } from './pairs.queries.ts';
import { isAdmin, type Viewer } from './pairs.service.ts';

/** A kept answer: the JSON to send and whether its pair is visible to members (else admins only). */
interface Answer {
  visible: boolean;
  json: string;
}

/** The cached public reads of the exchange; each answers the route's JSON body. Throws NOT_FOUND. */
export interface MarketAnswers {
  book(viewer: Viewer, pairId: string): Promise<string>;
  depth(viewer: Viewer, pairId: string, levels?: number): Promise<string>;
  trades(viewer: Viewer, pairId: string, limit?: number): Promise<string>;
  candles(viewer: Viewer, pairId: string, interval: CandleInterval, limit?: number): Promise<string>;
  /** Stops listening for changes. */
  stop(): void;
}

/** Starts the cache of `app`'s process, listening to its own commits and to the bus. */
export function startMarketAnswers(app: FastifyInstance, db: Db): MarketAnswers {
  const cache = new ResponseCache<Answer>();
  const dropLocal = app.live.changes.onLocalChange((changes) => {
    if (changes.currencies.size > 0) cache.clear();
    for (const p of changes.pairs) cache.invalidate(p);
  });
  const dropRemote = app.live.bus.subscribe((event) => {
    if (!isChangeEvent(event)) return;
    if ((event.currencies ?? []).length > 0) cache.clear();
    for (const p of event.pairs) cache.invalidate(p);
  });

  const answer = async (
    viewer: Viewer,
    pairId: string,
    key: string,
    build: (pair: PairRow) => Promise<string>,
  ): Promise<string> => {
    const a = await cache.get(pairId, key, async () => {
      const pair = await findPair(db, pairId);
      // Not kept: a pair made a moment later must be found.
      if (!pair) throw new AppError('NOT_FOUND', 'Pair not found');
      return { visible: pair.visible, json: await build(pair) };
    });
    if (!a.visible && !isAdmin(viewer)) throw new AppError('NOT_FOUND', 'Pair not found');
    return a.json;
  };

  return {
    book: (viewer, pairId) =>
      answer(viewer, pairId, 'book', async (pair) =>
        serializeAnswer(getOrdersResponse, await market.listBook(db, pair)),
      ),
    depth: (viewer, pairId, levels) =>
      answer(viewer, pairId, `depth:${levels ?? ''}`, async (pair) =>
        serializeAnswer(depthResponse, await market.depthOf(db, pair, levels)),
      ),
    trades: (viewer, pairId, limit) =>
      answer(viewer, pairId, `trades:${limit ?? ''}`, async (pair) =>
        serializeAnswer(tradesResponse, await market.listTrades(db, pair, limit)),
      ),
    candles: (viewer, pairId, interval, limit) =>
      answer(viewer, pairId, `candles:${interval}:${limit ?? ''}`, async (pair) =>
        serializeAnswer(candlesResponse, await market.listCandles(db, pair, interval, limit)),
      ),
    stop: () => {
      dropLocal();
      dropRemote();
    },
  };
}
