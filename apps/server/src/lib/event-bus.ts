/**
 * The event bus between server processes (DESIGN §1): PostgreSQL LISTEN/NOTIFY, so every replica on one
 * database hears every event, its own included; on the embedded PGlite (one process) an in-process bus.
 * Events are small JSON objects (a NOTIFY payload holds under 8000 bytes); receivers load what changed.
 */
import pg from 'pg';
import { CONNECT_TIMEOUT_MS, type Database } from '../db/client.ts';

/** Publishes and delivers JSON events. Delivery is at most once and asynchronous. */
export interface EventBus {
  /** Sends `event` to every subscriber of every process on the database. */
  publish(event: unknown): Promise<void>;
  /** Calls `listener` with each event; returns the unsubscribe function. */
  subscribe(listener: (event: unknown) => void): () => void;
  close(): Promise<void>;
}

/** The NOTIFY channel of the bus. */
export const BUS_CHANNEL = 'starlight_events';
/** A NOTIFY payload must stay under 8000 bytes. */
export const MAX_EVENT_BYTES = 7900;

class Listeners {
  private readonly set = new Set<(event: unknown) => void>();
  add(listener: (event: unknown) => void): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }
  emit(event: unknown): void {
    for (const l of this.set) {
      try {
        l(event);
      } catch {
        // One failing listener must not starve the others.
      }
    }
  }
}

/** An in-process bus: what PGlite (a single process) needs. */
export function memoryEventBus(): EventBus {
  const listeners = new Listeners();
  return {
    publish: async (event) => {
      const copy: unknown = JSON.parse(JSON.stringify(event));
      queueMicrotask(() => listeners.emit(copy));
    },
    subscribe: (listener) => listeners.add(listener),
    close: async () => {},
  };
}

/**
 * A bus over PostgreSQL LISTEN/NOTIFY: events are sent through `pool`, and one connection of its own to
 * `listenUrl` (a direct one: a pooler in transaction mode cannot hold a LISTEN) LISTENs and reconnects a
 * second after it is lost (events in the gap are missed; clients reload on reconnect).
 */
export async function postgresEventBus(pool: pg.Pool, listenUrl: string, channel = BUS_CHANNEL): Promise<EventBus> {
  const listeners = new Listeners();
  /** The LISTENing connection, and how to end it. */
  let current: { c: pg.ClientBase; drop: () => void } | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  const onNotification = (msg: pg.Notification) => {
    if (msg.channel !== channel || msg.payload === undefined) return;
    try {
      listeners.emit(JSON.parse(msg.payload));
    } catch {
      // Not ours or not JSON: ignore.
    }
  };
  const open = async (): Promise<{ c: pg.ClientBase; drop: () => void }> => {
    const c = new pg.Client({
      connectionString: listenUrl,
      keepAlive: true,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    const drop = () => void c.end().catch(() => {});
    c.on('error', () => {}); // until `connect` below listens for it
    await c.connect().catch((err: unknown) => {
      drop();
      throw err;
    });
    return { c, drop };
  };
  const connect = async (): Promise<void> => {
    const opened = await open();
    const { c, drop } = opened;
    c.on('notification', onNotification);
    const lost = () => {
      if (current !== opened) return;
      current = null;
      drop();
      if (!closed) retry = setTimeout(reconnect, 1000);
    };
    c.on('error', lost);
    c.on('end', lost);
    try {
      await c.query(`LISTEN ${channel}`);
    } catch (err) {
      drop();
      throw err;
    }
    if (closed) drop();
    else current = opened;
  };
  const reconnect = () => {
    retry = null;
    connect().catch(() => {
      if (!closed) retry = setTimeout(reconnect, 1000);
    });
  };
  await connect();

  return {
    publish: async (event) => {
      const payload = JSON.stringify(event);
      if (Buffer.byteLength(payload) > MAX_EVENT_BYTES) throw new Error('Event too large for NOTIFY');
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    subscribe: (listener) => listeners.add(listener),
    close: async () => {
      closed = true;
      if (retry) clearTimeout(retry);
      const was = current;
      current = null;
      was?.drop();
    },
  };
}

/** The bus for a database: LISTEN/NOTIFY on PostgreSQL, in-process on PGlite. */
export async function createEventBus(database: Database): Promise<EventBus> {
  return database.pool && database.listenUrl ? postgresEventBus(database.pool, database.listenUrl) : memoryEventBus();
}
