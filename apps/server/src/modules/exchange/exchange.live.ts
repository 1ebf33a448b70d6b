/**
 * The exchange's live feed (DESIGN §5): after a request commits, the pairs and members it changed go
 * on the event bus; every server process (this one included) then loads the fresh book, the new trades,
 * and the members' orders and balances, and pushes them to its own sockets at `/api/ws`.
 * Bursts are coalesced twice: one event per `PUBLISH_MS` on the sending side, and one load per pair and
 * per member every `FLUSH_MS` on the receiving side.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { isChangeEvent } from '../../lib/live-changes.ts';
import type { LiveClient } from '../../plugins/websocket.ts';
import { loadUserDto } from '../users/users.queries.ts';
import { findLastTradeSeq, findTrades } from './exchange.queries.ts';
import { loadBook, loadDepth, loadUserOrders, requireViewablePair, toTradeDto } from './exchange.service.ts';

const FLUSH_MS = 15;
/** Trades of a pair pushed at most per flush, and in a subscription's snapshot. */
const TRADES_PER_PUSH = 100;

/**
 * Wires the exchange into the live hub of `app`: answers subscriptions with a pair's snapshot (book,
 * depth, latest trades), signed-in sockets with the member's orders and balances, and pushes changes
 * heard on the bus. Returns the function that stops it.
 */
export function startExchangeLive(app: FastifyInstance, db: Db): () => void {
  const { hub, bus } = app.live;
  /** Per pair watched here: the last trade already pushed. */
  const tradeCursor = new Map<string, number>();
  const dirtyPairs = new Set<string>();
  const dirtyUsers = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> = Promise.resolve();
  let stopped = false;

  const pushBook = async (pairId: string, to: LiveClient[]) => {
    const [orders, depth] = await Promise.all([loadBook(db, pairId), loadDepth(db, pairId)]);
    for (const c of to) c.send({ type: 'book', pair: pairId, orders, depth });
  };
  const pushMember = async (userId: string, to: LiveClient[]) => {
    const [orders, user] = await Promise.all([loadUserOrders(db, userId), loadUserDto(db, userId)]);
    for (const c of to) {
      c.send({ type: 'orders', orders });
      c.send({ type: 'balances', balances: user?.balances ?? [] });
    }
  };

  hub.handlers.onAuthenticated = async (client) => {
    if (client.user) await pushMember(client.user.id, [client]);
  };
  hub.handlers.onSubscribe = async (client, pairId) => {
    await requireViewablePair(db, pairId, client.user);
    // The first watcher here starts the pair's trade cursor; later pushes send only newer trades.
    if (hub.clientsOfPair(pairId).length === 0) tradeCursor.set(pairId, await findLastTradeSeq(db, pairId));
    client.pairs.add(pairId);
    const trades = await findTrades(db, pairId, TRADES_PER_PUSH);
    await pushBook(pairId, [client]);
    client.send({ type: 'trades', pair: pairId, trades: trades.map(toTradeDto) });
  };

  const flush = async () => {
    timer = null;
    const pairs = [...dirtyPairs];
    const users = [...dirtyUsers];
    dirtyPairs.clear();
    dirtyUsers.clear();
    for (const pairId of pairs) {
      const watchers = hub.clientsOfPair(pairId);
      if (watchers.length === 0) continue;
      const after = tradeCursor.get(pairId) ?? (await findLastTradeSeq(db, pairId));
      const trades = await findTrades(db, pairId, TRADES_PER_PUSH, after);
      const newest = trades[0];
      if (newest) tradeCursor.set(pairId, newest.seq);
      await pushBook(pairId, watchers);
      if (trades.length > 0) {
        const dtos = trades.map(toTradeDto);
        for (const c of watchers) c.send({ type: 'trades', pair: pairId, trades: dtos });
      }
    }
    for (const userId of users) {
      const sockets = hub.clientsOfUser(userId);
      if (sockets.length > 0) await pushMember(userId, sockets);
    }
  };

  const unsubscribe = bus.subscribe((event) => {
    if (stopped || !isChangeEvent(event)) return;
    for (const p of event.pairs) dirtyPairs.add(p);
    for (const u of event.users) dirtyUsers.add(u);
    if (timer) return;
    timer = setTimeout(() => {
      flushing = flushing.then(flush).catch((err: unknown) => {
        if (!stopped) app.log.warn({ err }, 'exchange live push failed');
      });
    }, FLUSH_MS);
  });

  return () => {
    stopped = true;
    unsubscribe();
    if (timer) clearTimeout(timer);
  };
}
