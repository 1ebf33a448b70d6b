/**
 * Messages the server pushes on `/api/ws` (the client's are `schemas/exchange.ts`'s `wsClientMessage`):
 * - `auth`: the socket is signed in as `user`;
 * - `book`: a subscribed pair's book by price level (`depth`, as getDepth), on subscribe and after every
 *   change; a client showing single orders fetches getOrders again when it arrives (a deep book's 500
 *   orders a side would otherwise go to every watcher on every change);
 * - `trades`: a subscribed pair's trades, newest first (the snapshot on subscribe, then only new ones;
 *   a client may see a trade twice around its subscription and should key them by `_id`);
 * - `orders`: the member's own orders, as getUserOrders (the whole list, on every change);
 * - `balances`: the member's non-zero balances;
 * - `error`: a refused message (`Not authorized`, `Token expired`, `Pair not found`, `Invalid message`);
 * - `pong`: the answer to `ping`;
 * - `defcon`: the alert level changed (SPEC §3), pushed to every socket;
 * - `currencies`: currencies an admin created or changed, each whole as getCurrencies lists it, pushed to
 *   every socket (currencies are public), so a page's currency list never misses one;
 * - `notification`: a notification of the member's (or a broadcast) as it commits (DESIGN §11.3).
 *
 * The server writes them through this type only (`plugins/websocket.ts`), so their shapes are checked
 * when it compiles. The browser reads them with `readWsServerMessage`, which checks the JSON and the
 * message type and no more: the socket opens on every signed-in page, and a schema library there would
 * weigh on /dashboard's first paint only to re-check what our own server typed.
 */
import type { Currency } from './schemas/bank.ts';
import type { Depth, Order, Trade } from './schemas/exchange.ts';
import type { Notification } from './schemas/notifications.ts';

export type WsServerMessage =
  | { type: 'auth'; user: { _id: string; nickname: string; role: string } }
  | { type: 'book'; pair: string; depth: Depth }
  | { type: 'trades'; pair: string; trades: Trade[] }
  | { type: 'orders'; orders: Order[] }
  | { type: 'balances'; balances: Array<{ currencyId: number; amount: string }> }
  | { type: 'error'; message: string }
  | { type: 'pong' }
  | { type: 'defcon'; defconLvl: number; defconMsg: string }
  | { type: 'currencies'; currencies: Currency[] }
  | { type: 'notification'; notification: Notification };

const TYPES: ReadonlySet<string> = new Set<WsServerMessage['type']>([
  'auth',
  'book',
  'trades',
  'orders',
  'balances',
  'error',
  'pong',
  'defcon',
  'currencies',
  'notification',
]);

/** The message in the text frame `raw`, or null when it is not JSON or not of a known type. */
export function readWsServerMessage(raw: string): WsServerMessage | null {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null) return null;
  const type = (data as { type?: unknown }).type;
  return typeof type === 'string' && TYPES.has(type) ? (data as WsServerMessage) : null;
}
