/**
 * The exchange's live feed (DESIGN §5): after a request commits, the pairs and members it changed go
 * on the event bus; every server process (this one included) then loads the fresh depth, the new trades
 * and the members' orders, and pushes them to its own sockets at `/api/ws` (balances: the balances
 * module). Bursts are coalesced twice: one event per `PUBLISH_MS` on the sending side, and one load per
 * pair and per member every `FLUSH_MS` on the receiving side.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { onSocketAuthenticated, subscribeToChanges } from '../../lib/live-changes.ts';
import type { LiveClient } from '../../plugins/websocket.ts';
import { toTradeDto } from './exchange.dto.ts';
import { findLastTradeSeq, findTrades } from './market.queries.ts';
import { loadDepth, loadUserOrders } from './market.service.ts';
import { findPair, type PairRow } from './pairs.queries.ts';
import { requireViewablePair } from './pairs.service.ts';

const FLUSH_MS = 15;
/** Trades of a pair pushed at most per flush, and in a subscription's snapshot. */
const TRADES_PER_PUSH = 100;

/**
 * Wires the exchange into the live hub of `app`: answers subscriptions with a pair's snapshot (depth,
 * latest trades), signed-in sockets with the member's orders, and pushes changes heard on the
 * bus. Returns the function that stops it.
 */
export function startExchangeLive(app: FastifyInstance, db: Db): () => void {
  const { hub, bus } = app.live;
  /** Per pair watched here: the last trade already pushed. */
  const tradeCursor = new Map<string, number>();

  const pushBook = async (pair: PairRow, to: LiveClient[]) => {
    const depth = await loadDepth(db, pair);
    for (const c of to) c.send({ type: 'book', pair: pair.id, depth });
  };
  const pushOrders = async (userId: string, to: LiveClient[]) => {
    const orders = await loadUserOrders(db, userId);
    for (const c of to) c.send({ type: 'orders', orders });
  };

  onSocketAuthenticated(hub, async (client) => {
    if (client.user) await pushOrders(client.user.id, [client]);
  });
  hub.handlers.onSubscribe = async (client, pairId) => {
    const pair = await requireViewablePair(db, pairId, client.user);
    // The first watcher here starts the pair's trade cursor; later pushes send only newer trades.
    if (hub.clientsOfPair(pairId).length === 0) tradeCursor.set(pairId, await findLastTradeSeq(db, pairId));
    client.pairs.add(pairId);
    const trades = await findTrades(db, pairId, TRADES_PER_PUSH);
    await pushBook(pair, [client]);
    client.send({ type: 'trades', pair: pairId, trades: trades.map((t) => toTradeDto(t, pair)) });
  };

  const flush = async ({ pairs, users }: { pairs: string[]; users: string[] }) => {
    for (const pairId of pairs) {
      const watchers = hub.clientsOfPair(pairId);
      if (watchers.length === 0) continue;
      const pair = await findPair(db, pairId);
      if (!pair) continue;
      const after = tradeCursor.get(pairId) ?? (await findLastTradeSeq(db, pairId));
      const trades = await findTrades(db, pairId, TRADES_PER_PUSH, after);
      const newest = trades[0];
      if (newest) tradeCursor.set(pairId, newest.seq);
      await pushBook(pair, watchers);
      if (trades.length > 0) {
        const dtos = trades.map((t) => toTradeDto(t, pair));
        for (const c of watchers) c.send({ type: 'trades', pair: pairId, trades: dtos });
      }
    }
    for (const userId of users) {
      const sockets = hub.clientsOfUser(userId);
      if (sockets.length > 0) await pushOrders(userId, sockets);
    }
  };

  return subscribeToChanges(bus, FLUSH_MS, flush, (err) => app.log.warn({ err }, 'exchange live push failed'));
}
