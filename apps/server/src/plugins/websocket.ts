/**
 * The live hub (DESIGN §1, §5): the WebSocket at `/api/ws` and the event bus between server processes.
 * Cross-cutting only: it keeps the sockets, signs them in, and tracks which pairs each one watches;
 * the modules that own the data (the exchange) set `handlers` and push through `clientsOfPair` and
 * `clientsOfUser`. The message protocol is `wsClientMessage` / `wsServerMessage` in packages/shared.
 */
import fastifyWebsocket from '@fastify/websocket';
import { AppError, type WsServerMessage, wsClientMessage } from '@starlight/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/client.ts';
import type { AuthUser } from '../http/access.ts';
import { createEventBus, type EventBus } from '../lib/event-bus.ts';
import {
  ChangePublisher,
  isDefconChangedEvent,
  isSessionsEndedEvent,
  type SessionsEndedEvent,
} from '../lib/live-changes.ts';
import { bearerToken } from './auth.ts';

/** The part of a `ws` WebSocket the hub uses (the package ships no types here). */
interface RawSocket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  ping(): void;
  on(event: 'message', listener: (data: Buffer | ArrayBuffer | Buffer[]) => void): void;
  on(event: 'close' | 'pong', listener: () => void): void;
  on(event: 'error', listener: (err: Error) => void): void;
}

const OPEN = 1;
/** Pairs one socket may watch at once. */
const MAX_PAIRS_PER_SOCKET = 20;
const HEARTBEAT_MS = 30_000;

/** One connected socket. `user` is set once it signed in. */
export interface LiveClient {
  readonly id: number;
  user: AuthUser | null;
  /** The token version of the session the socket signed in with (null before it signs in). */
  tokenVersion: number | null;
  /** The session the socket signed in with (`user_sessions`; null before it signs in). */
  sessionId: string | null;
  readonly pairs: Set<string>;
  send(message: WsServerMessage): void;
}

/** What the owning modules do when a socket signs in or subscribes to a pair. */
export interface LiveHandlers {
  /** Pushes the member's snapshot (orders, balances). */
  onAuthenticated?(client: LiveClient): Promise<void>;
  /** Checks the pair may be watched (throws AppError), adds it to `client.pairs` and pushes its snapshot. */
  onSubscribe?(client: LiveClient, pairId: string): Promise<void>;
}

/** The sockets of this process. */
export class LiveHub {
  readonly clients = new Set<LiveClient>();
  handlers: LiveHandlers = {};

  /** Sockets watching a pair. */
  clientsOfPair(pairId: string): LiveClient[] {
    return [...this.clients].filter((c) => c.pairs.has(pairId));
  }

  /** Sockets signed in as a user. */
  clientsOfUser(userId: string): LiveClient[] {
    return [...this.clients].filter((c) => c.user?.id === userId);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The live hub of this process, the bus between processes, and the publisher of changes on it. */
    live: { hub: LiveHub; bus: EventBus; changes: ChangePublisher; sessions: SessionEnder };
  }
}

/** The `exp` claim of a JWT (seconds), read without verifying: the token was verified already. */
/** The expiry (epoch seconds), token version and session id of a token the auth plugin has verified. */
function tokenClaims(token: string): { exp: number | null; tv: number | null; sid: string | null } {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      exp?: unknown;
      tv?: unknown;
      sid?: unknown;
    };
    return {
      exp: typeof payload.exp === 'number' ? payload.exp : null,
      tv: typeof payload.tv === 'number' ? payload.tv : null,
      sid: typeof payload.sid === 'string' ? payload.sid : null,
    };
  } catch {
    return { exp: null, tv: null, sid: null };
  }
}

/** Ends a member's sessions on the sockets of every server process (DESIGN §8: token version). */
export interface SessionEnder {
  /** Closes, everywhere, the member's sockets signed in with a token older than `tokenVersion`. */
  end(userId: string, tokenVersion: number): Promise<void>;
  /** Closes, everywhere, the member's sockets signed in with the sessions `sessionIds` (DESIGN §11.1). */
  endSessions(userId: string, sessionIds: string[]): Promise<void>;
}

/** WebSocket close code of a socket whose session ended (logout, password change, deactivation). */
export const SESSION_ENDED_CLOSE = 4001;

function messageOf(err: unknown): string {
  return err instanceof AppError ? err.message : 'Internal server error';
}

export const websocketPlugin = fp<{ database: Database }>(async (app: FastifyInstance, opts) => {
  const bus = await createEventBus(opts.database);
  const hub = new LiveHub();
  const changes = new ChangePublisher(bus, app.log);
  const sessions: SessionEnder = {
    async end(userId, tokenVersion) {
      const event: SessionsEndedEvent = { kind: 'sessions-ended', userId, tokenVersion };
      await bus.publish(event);
    },
    async endSessions(userId, sessionIds) {
      const event: SessionsEndedEvent = { kind: 'sessions-ended', userId, sessionIds };
      await bus.publish(event);
    },
  };
  app.decorate('live', { hub, bus, changes, sessions });
  /** Sockets of this process, by client, so an ended session's sockets can be closed. */
  const socketOf = new Map<LiveClient, RawSocket>();
  const stopEndingSessions = bus.subscribe((event) => {
    if (isDefconChangedEvent(event)) {
      // The alert level is for every visitor: every socket, signed in or not.
      for (const client of hub.clients) {
        client.send({ type: 'defcon', defconLvl: event.defconLvl, defconMsg: event.defconMsg });
      }
      return;
    }
    if (!isSessionsEndedEvent(event)) return;
    for (const client of hub.clientsOfUser(event.userId)) {
      const ended =
        event.tokenVersion !== undefined
          ? (client.tokenVersion ?? -1) < event.tokenVersion
          : client.sessionId !== null && (event.sessionIds ?? []).includes(client.sessionId);
      if (!ended) continue;
      client.send({ type: 'error', message: 'Not authorized' });
      client.user = null;
      socketOf.get(client)?.close(SESSION_ENDED_CLOSE, 'Session ended');
    }
  });

  await app.register(fastifyWebsocket, { options: { maxPayload: 16 * 1024 } });

  /**
   * Signs a socket in with a session token. It asks the one authentication path there is (the auth
   * plugin behind `GET /api/user/me`), so token version, expiry and disabled accounts count here too.
   */
  async function signIn(token: string): Promise<AuthUser> {
    const res = await app.inject({ method: 'GET', url: '/api/user/me', headers: { authorization: `Bearer ${token}` } });
    const body = res.json<{ user?: { _id: string; nickname: string; role: string }; message?: string }>();
    if (res.statusCode !== 200 || !body.user) {
      throw new AppError(res.statusCode === 403 ? 'FORBIDDEN' : 'UNAUTHORIZED', body.message ?? 'Not authorized');
    }
    return { id: body.user._id, nickname: body.user.nickname, role: body.user.role };
  }

  let nextId = 1;
  let heartbeat: NodeJS.Timeout | null = null;
  const alive = new Map<RawSocket, boolean>();

  app.get('/api/ws', { websocket: true, config: { access: 'public' } }, (raw: unknown, req: FastifyRequest) => {
    const socket = raw as RawSocket;
    let expiry: NodeJS.Timeout | null = null;
    const client: LiveClient = {
      id: nextId++,
      user: null,
      tokenVersion: null,
      sessionId: null,
      pairs: new Set(),
      send(message) {
        if (socket.readyState === OPEN) socket.send(JSON.stringify(message));
      },
    };
    hub.clients.add(client);
    socketOf.set(client, socket);
    alive.set(socket, true);

    const authenticated = async (user: AuthUser, token: string | null) => {
      client.user = user;
      if (expiry) clearTimeout(expiry);
      const { exp, tv, sid } = token ? tokenClaims(token) : { exp: null, tv: null, sid: null };
      client.tokenVersion = tv;
      client.sessionId = sid;
      if (exp !== null) {
        const ms = Math.min(Math.max(exp * 1000 - Date.now(), 0), 2 ** 31 - 1);
        expiry = setTimeout(() => {
          client.user = null;
          client.send({ type: 'error', message: 'Token expired' });
        }, ms);
        expiry.unref();
      }
      client.send({ type: 'auth', user: { _id: user.id, nickname: user.nickname, role: user.role } });
      await hub.handlers.onAuthenticated?.(client);
    };

    const handle = async (text: string) => {
      let parsed: ReturnType<typeof wsClientMessage.safeParse>;
      try {
        parsed = wsClientMessage.safeParse(JSON.parse(text));
      } catch {
        parsed = wsClientMessage.safeParse(undefined);
      }
      if (!parsed.success) {
        client.send({ type: 'error', message: 'Invalid message' });
        return;
      }
      const msg = parsed.data;
      switch (msg.type) {
        case 'ping':
          client.send({ type: 'pong' });
          return;
        case 'auth':
          await authenticated(await signIn(msg.token), msg.token);
          return;
        case 'subscribe':
          if (!client.pairs.has(msg.pair) && client.pairs.size >= MAX_PAIRS_PER_SOCKET) {
            throw new AppError('CONFLICT', 'Too many subscriptions');
          }
          if (!hub.handlers.onSubscribe) throw new AppError('NOT_FOUND', 'Pair not found');
          await hub.handlers.onSubscribe(client, msg.pair);
          return;
        case 'unsubscribe':
          client.pairs.delete(msg.pair);
          return;
        default: {
          const never: never = msg;
          throw new Error(`unhandled message ${String(never)}`);
        }
      }
    };

    // Messages of one socket are handled one after another, in order (auth before subscribe).
    let queue: Promise<void> = Promise.resolve();
    const enqueue = (work: () => Promise<void>) => {
      queue = queue.then(work).catch((err: unknown) => {
        if (!(err instanceof AppError)) req.log.error({ err }, 'websocket message failed');
        client.send({ type: 'error', message: messageOf(err) });
      });
    };
    socket.on('message', (data) => {
      const text = Buffer.isBuffer(data)
        ? data.toString('utf8')
        : Array.isArray(data)
          ? Buffer.concat(data).toString('utf8')
          : Buffer.from(data).toString('utf8');
      enqueue(() => handle(text));
    });
    socket.on('pong', () => alive.set(socket, true));
    socket.on('error', () => socket.terminate());
    socket.on('close', () => {
      if (expiry) clearTimeout(expiry);
      hub.clients.delete(client);
      socketOf.delete(client);
      alive.delete(socket);
    });

    // A token sent on the upgrade request itself (non-browser clients) signs the socket in at once.
    if (req.auth) {
      const user = req.auth;
      enqueue(() => authenticated(user, bearerToken(req.headers.authorization) ?? null));
    }
  });

  app.addHook('onReady', async () => {
    heartbeat = setInterval(() => {
      for (const [socket, isAlive] of alive) {
        if (!isAlive) {
          socket.terminate();
          continue;
        }
        alive.set(socket, false);
        socket.ping();
      }
    }, HEARTBEAT_MS);
    heartbeat.unref();
  });
  app.addHook('preClose', async () => {
    if (heartbeat) clearInterval(heartbeat);
    stopEndingSessions();
    await changes.flush(); // what is still queued goes out before the bus closes
    await bus.close();
  });
});
