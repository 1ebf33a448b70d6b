/**
 * The exchange's public market answers (getOrders, getDepth, getTrades, getCandles), built once per change
 * of their pair and served to every viewer from `lib/response-cache.ts` (building and serializing a busy
 * pair's book per request was most of a visitor's wait). A pair's answers are dropped when this process
 * commits a change of the pair, when another replica's change is heard on the bus (the live feed's own
 * lag), when a currency changes (precision, names), and after a second in any case. Who may see a pair
 * (hidden pairs: admins only) is checked on every request against the pair row loaded with the answer.
 *
 * A member's own orders (getUserOrders, up to 500) are kept the same way per member: dropped when a change
 * names the member (`LiveChanges.touchUser`: their placements, cancels and payouts, and every fill of their
 * resting orders), on a currency change, and after `OWN_ORDERS_TTL_MS` in any case.
 */
import {
  AppError,
  type CandleInterval,
  candlesResponse,
  depthResponse,
  getOrdersResponse,
  tradesResponse,
  userOrdersResponse,
} from '@starlight/shared';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { AuthUser } from '../../http/access.ts';
import { watchChanges } from '../../lib/live-changes.ts';
import { type JsonBody, ResponseCache, serializeAnswer } from '../../lib/response-cache.ts';
import * as market from './market.service.ts';
import { findPair, type PairRow } from './pairs.queries.ts';
import { isAdmin, type Viewer } from './pairs.service.ts';

/** How long a member's own orders are kept at most (milliseconds). */
const OWN_ORDERS_TTL_MS = 5000;

/** A kept answer: the JSON to send and whether its pair is visible to members (else admins only). */
interface Answer {
  visible: boolean;
  json: JsonBody;
}

/** The cached public reads of the exchange; each answers the route's JSON body. Throws NOT_FOUND. */
export interface MarketAnswers {
  book(viewer: Viewer, pairId: string): Promise<JsonBody>;
  depth(viewer: Viewer, pairId: string, levels?: number): Promise<JsonBody>;
  trades(viewer: Viewer, pairId: string, limit?: number): Promise<JsonBody>;
  candles(viewer: Viewer, pairId: string, interval: CandleInterval, limit?: number): Promise<JsonBody>;
  /** `member`'s own orders (of `pairId`, or every pair), the getUserOrders body. */
  userOrders(member: AuthUser, pairId?: string): Promise<JsonBody>;
  /** Stops listening for changes. */
  stop(): void;
}

/**
 * Starts the cache of `app`'s process, listening to its own commits and to the bus. Trades and candles
 * are read from `readDb` (a standby when there is one); the book and a member's own orders,
 * which a member checks right after placing one, from `db`.
 */
export function startMarketAnswers(app: FastifyInstance, db: Db, readDb: Db = db): MarketAnswers {
  const cache = new ResponseCache<Answer>();
  const ownOrders = new ResponseCache<JsonBody>({ ttlMs: OWN_ORDERS_TTL_MS });
  const stopWatching = watchChanges(app.live, (changed) => {
    if (changed.currencies.length > 0) {
      cache.clear();
      ownOrders.clear();
    }
    for (const p of changed.pairs) cache.invalidate(p);
    for (const u of changed.users) ownOrders.invalidate(u);
  });

  const answer = async (
    viewer: Viewer,
    pairId: string,
    key: string,
    build: (pair: PairRow) => Promise<JsonBody>,
  ): Promise<JsonBody> => {
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
        serializeAnswer(tradesResponse, await market.listTrades(readDb, pair, limit)),
      ),
    candles: (viewer, pairId, interval, limit) =>
      answer(viewer, pairId, `candles:${interval}:${limit ?? ''}`, async (pair) =>
        serializeAnswer(candlesResponse, await market.listCandles(readDb, pair, interval, limit)),
      ),
    userOrders: (member, pairId) =>
      ownOrders.get(member.id, pairId ?? '', async () =>
        serializeAnswer(userOrdersResponse, await market.listUserOrders(db, member, pairId)),
      ),
    stop: stopWatching,
  };
}
