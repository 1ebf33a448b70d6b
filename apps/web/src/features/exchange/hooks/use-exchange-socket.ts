/**
 * The live feed of the Quantum Hub (DESIGN §5): one WebSocket on `/api/ws` that signs in with the
 * session token and watches one pair. Pushed books, trades, own orders and balances go straight into
 * the query cache, so every list on the page updates without polling; so do the currencies an admin
 * creates or changes (pushed to every socket). A dropped socket reconnects with exponential backoff
 * (1 s .. 30 s) and the exchange queries, the member and the currency list are refetched, since pushes
 * may have been missed meanwhile. SPEC §4: 'Not authorized' and 'Token expired' end the session.
 */
import { readWsServerMessage, type Trade, type User, type WsClientMessage } from '@starlight/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { applyPushedCurrencies, clearCurrencyCache, refetchIfUnknown } from '../../../lib/currencies.ts';
import { setDefcon } from '../../../lib/defcon.ts';
import { onPushedNotification } from '../../../lib/notifications-live.ts';
import { toastError } from '../../../lib/notify.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.ts';

export type LiveStatus = 'connecting' | 'live' | 'offline';

const LOGOUT_MESSAGES = ['Not authorized', 'Token expired', 'Authorization error', 'Unauthorized'];
const MAX_BACKOFF_MS = 30_000;
const TRADES_KEPT = 200;

function socketUrl(): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}/api/ws`;
}

/** Merges pushed trades into the cached list, keyed by `_id` (a trade may arrive twice), newest first. */
export function mergeTrades(current: Trade[] | undefined, incoming: Trade[]): Trade[] {
  const byId = new Map<string, Trade>();
  for (const t of [...incoming, ...(current ?? [])]) if (!byId.has(t._id)) byId.set(t._id, t);
  return [...byId.values()]
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
    .slice(0, TRADES_KEPT);
}

/**
 * Connects while mounted; `pair` is the pair to watch (null: none, e.g. the shell's member feed of
 * orders and balances). Returns the connection status.
 */
export function useExchangeSocket(pair: string | null): LiveStatus {
  const client = useQueryClient();
  const token = useSession((s) => s.token);
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const socketRef = useRef<WebSocket | null>(null);
  const pairRef = useRef<string | null>(pair);
  const subscribedRef = useRef<string | null>(null);

  const send = (message: WsClientMessage) => {
    const ws = socketRef.current;
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  };

  // Keeps the socket's subscription equal to the pair on screen.
  const syncSubscription = () => {
    const want = pairRef.current;
    const ws = socketRef.current;
    if (!ws || ws.readyState !== WebSocket.OPEN || subscribedRef.current === want) return;
    if (subscribedRef.current) send({ type: 'unsubscribe', pair: subscribedRef.current });
    if (want) send({ type: 'subscribe', pair: want });
    subscribedRef.current = want;
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: one connection per session token
  useEffect(() => {
    let stopped = false;
    let attempt = 0;
    let everOpened = false;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const handle = (raw: string) => {
      const msg = readWsServerMessage(raw);
      if (!msg) return;
      switch (msg.type) {
        case 'book':
          client.setQueryData(queryKeys.exchange.depth(msg.pair), msg.depth);
          // The book of single orders, when on screen, is fetched again (the push carries levels only).
          void client.invalidateQueries({ queryKey: queryKeys.exchange.book(msg.pair) });
          void client.invalidateQueries({ queryKey: queryKeys.exchange.bookPagesOf(msg.pair) });
          return;
        case 'trades':
          client.setQueryData<Trade[]>(queryKeys.exchange.trades(msg.pair), (cur) => mergeTrades(cur, msg.trades));
          // New trades change the latest candle: refetch the pair's charts.
          void client.invalidateQueries({ queryKey: queryKeys.exchange.candlesOf(msg.pair) });
          return;
        case 'orders':
          // The member's orders changed: the pages on screen refetch (each is a page of one state).
          void client.invalidateQueries({ queryKey: queryKeys.exchange.myOrdersPages });
          return;
        case 'balances': {
          client.setQueryData<User>(queryKeys.me(token), (me) => (me ? { ...me, balances: msg.balances } : me));
          const { user, setUser } = useSession.getState();
          if (user) setUser({ ...user, balances: msg.balances });
          // A balance moved: the member's history has a new row.
          void client.invalidateQueries({ queryKey: queryKeys.transactionsAll });
          // A balance in a currency the list lacks (its push was missed): fetch the list again.
          refetchIfUnknown(
            client,
            msg.balances.map((b) => b.currencyId),
          );
          return;
        }
        case 'currencies':
          applyPushedCurrencies(client, msg.currencies);
          return;
        case 'error':
          if (LOGOUT_MESSAGES.some((m) => msg.message.includes(m))) {
            useSession.getState().clear();
            return;
          }
          toastError(msg.message);
          return;
        case 'defcon':
          setDefcon(msg);
          return;
        case 'notification':
          // DESIGN §11.3: the bell's count and list, and a toast for the kinds that warrant one.
          onPushedNotification(client, token, msg.notification);
          return;
        case 'auth':
          // From here on this socket gets the member's pushes: read the notifications once more, so one
          // committed between the page's first read and now is not missed.
          void client.invalidateQueries({ queryKey: queryKeys.notificationsAll });
          return;
        case 'pong':
          return;
        default: {
          const exhaustive: never = msg;
          return exhaustive;
        }
      }
    };

    const connect = () => {
      setStatus('connecting');
      const ws = new WebSocket(socketUrl());
      socketRef.current = ws;
      subscribedRef.current = null;
      ws.onopen = () => {
        attempt = 0;
        setStatus('live');
        if (token) ws.send(JSON.stringify({ type: 'auth', token } satisfies WsClientMessage));
        syncSubscription();
        // After a drop, pushes may have been missed: refetch what the page shows.
        if (everOpened) {
          void client.invalidateQueries({ queryKey: queryKeys.exchange.all });
          void client.invalidateQueries({ queryKey: queryKeys.meAll });
          void client.invalidateQueries({ queryKey: queryKeys.notificationsAll });
          clearCurrencyCache();
          void client.invalidateQueries({ queryKey: queryKeys.currencies });
        }
        everOpened = true;
      };
      ws.onmessage = (event) => {
        if (typeof event.data === 'string') handle(event.data);
      };
      ws.onclose = () => {
        if (socketRef.current === ws) socketRef.current = null;
        if (stopped) return;
        setStatus('offline');
        const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** attempt);
        attempt++;
        timer = setTimeout(connect, delay);
      };
    };

    connect();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      const ws = socketRef.current;
      socketRef.current = null;
      subscribedRef.current = null;
      if (ws) {
        ws.onclose = null;
        ws.onmessage = null;
        ws.close();
      }
    };
  }, [token]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the helpers read refs
  useEffect(() => {
    pairRef.current = pair;
    syncSubscription();
  }, [pair]);

  return status;
}
