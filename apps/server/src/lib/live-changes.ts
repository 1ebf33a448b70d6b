/**
 * What committed requests changed, for the live feed (DESIGN §5): ids of trading pairs, of members and
 * of currencies. Services collect them in a `LiveChanges` while they work; after the commit the route
 * hands them to the `ChangePublisher`, which merges them into one bus event every `PUBLISH_MS`; in every
 * server process the modules that own the data (`subscribeToChanges`) then load and push the fresh book,
 * trades, orders, balances and currencies to its sockets, and the notifications written (DESIGN §11.3).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { EventBus } from './event-bus.ts';

/**
 * The pairs, members, currencies and item collections one request (or batch) changed, and the
 * notifications and broadcasts it wrote.
 */
export class LiveChanges {
  readonly pairs = new Set<string>();
  readonly users = new Set<string>();
  readonly currencies = new Set<number>();
  readonly collections = new Set<string>();
  readonly notifications = new Set<string>();
  readonly broadcasts = new Set<string>();
  touchPair(pairId: string): void {
    this.pairs.add(pairId);
  }
  /** A member whose balances or orders changed (null, e.g. no fee collector, is ignored). */
  touchUser(userId: string | null): void {
    if (userId) this.users.add(userId);
  }
  /**
   * Every account that sends, receives or executes one of `rows` (ledger rows being posted): their balances,
   * history and kept totals changed (the ledger's posting calls it, so no path can forget the executor).
   */
  touchParties(
    rows: Iterable<{ senderId: string | null; recipientId: string | null; executorId: string | null }>,
  ): void {
    for (const r of rows) {
      this.touchUser(r.senderId);
      this.touchUser(r.recipientId);
      this.touchUser(r.executorId);
    }
  }
  /** A currency created or changed (its rules, taxes, name, precision): every open page shows it. */
  touchCurrency(currencyId: number): void {
    this.currencies.add(currencyId);
  }
  /** An item collection whose items were added or removed: its kept totals are dropped. */
  touchCollection(collectionId: string): void {
    this.collections.add(collectionId);
  }
  /** Notifications written (their ids): their members' sockets get them after the commit. */
  touchNotifications(ids: Iterable<string>): void {
    for (const id of ids) this.notifications.add(id);
  }
  /** A broadcast written (its id): every socket of its role gets it after the commit. */
  touchBroadcast(id: string): void {
    this.broadcasts.add(id);
  }
  get isEmpty(): boolean {
    return (
      this.pairs.size === 0 &&
      this.users.size === 0 &&
      this.currencies.size === 0 &&
      this.collections.size === 0 &&
      this.notifications.size === 0 &&
      this.broadcasts.size === 0
    );
  }
}

/**
 * One bus event: ids of pairs, members, currencies and item collections that changed, and of notifications
 * and broadcasts written. The optional lists may be missing (an event of a replica that predates them, or
 * none changed) and then mean none.
 */
export interface ChangeEvent {
  kind: 'changes';
  pairs: string[];
  users: string[];
  currencies?: number[];
  collections?: string[];
  notifications?: string[];
  broadcasts?: string[];
}

/** True when a bus event is a `ChangeEvent`. */
export function isChangeEvent(e: unknown): e is ChangeEvent {
  const x = e as Partial<ChangeEvent> | null;
  return (
    x?.kind === 'changes' &&
    Array.isArray(x.pairs) &&
    Array.isArray(x.users) &&
    (x.currencies === undefined || Array.isArray(x.currencies)) &&
    (x.collections === undefined || Array.isArray(x.collections)) &&
    (x.notifications === undefined || Array.isArray(x.notifications)) &&
    (x.broadcasts === undefined || Array.isArray(x.broadcasts))
  );
}

/** How long published changes wait to be merged with others into one NOTIFY (milliseconds). */
const PUBLISH_MS = 10;
/** Ids per bus event, so a NOTIFY payload stays far below its 8000 bytes. */
const IDS_PER_EVENT = 200;

/**
 * Publishes what committed requests changed, merged: one bus event (one NOTIFY) per `PUBLISH_MS` for
 * every request in that window, rather than one per request (DESIGN §9). Never throws: the requests
 * succeeded whatever happens to the feed (clients reload on their next action); failures are logged.
 */
export class ChangePublisher {
  private readonly pairs = new Set<string>();
  private readonly users = new Set<string>();
  private readonly currencies = new Set<number>();
  private readonly collections = new Set<string>();
  private readonly notifications = new Set<string>();
  private readonly broadcasts = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private readonly bus: EventBus;
  private readonly log: FastifyBaseLogger;
  private readonly local = new Set<(changes: LiveChanges) => void>();

  constructor(bus: EventBus, log: FastifyBaseLogger) {
    this.bus = bus;
    this.log = log;
  }

  /**
   * Calls `listener` with every change set this process commits, at once, before the bus carries it to
   * the other processes (so this process never answers from what the change made stale). Returns the
   * function that removes it. A throwing listener is logged; the others still run.
   */
  onLocalChange(listener: (changes: LiveChanges) => void): () => void {
    this.local.add(listener);
    return () => this.local.delete(listener);
  }

  /** Queues `changes` for the next event (and hands them to the local listeners first). */
  add(changes: LiveChanges): void {
    if (changes.isEmpty) return;
    for (const listener of this.local) {
      try {
        listener(changes);
      } catch (err) {
        this.log.warn({ err }, 'a local change listener failed');
      }
    }
    for (const p of changes.pairs) this.pairs.add(p);
    for (const u of changes.users) this.users.add(u);
    for (const c of changes.currencies) this.currencies.add(c);
    for (const c of changes.collections) this.collections.add(c);
    for (const n of changes.notifications) this.notifications.add(n);
    for (const b of changes.broadcasts) this.broadcasts.add(b);
    this.timer ??= setTimeout(() => void this.flush(), PUBLISH_MS);
  }

  /** Publishes what is queued now, in chunks that keep each NOTIFY payload small. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const ids = [
      ...[...this.currencies].map((id) => ['c', String(id)] as const),
      ...[...this.pairs].map((id) => ['p', id] as const),
      ...[...this.users].map((id) => ['u', id] as const),
      ...[...this.collections].map((id) => ['k', id] as const),
      ...[...this.notifications].map((id) => ['n', id] as const),
      ...[...this.broadcasts].map((id) => ['b', id] as const),
    ];
    this.pairs.clear();
    this.users.clear();
    this.currencies.clear();
    this.collections.clear();
    this.notifications.clear();
    this.broadcasts.clear();
    try {
      for (let i = 0; i < ids.length; i += IDS_PER_EVENT) {
        const chunk = ids.slice(i, i + IDS_PER_EVENT);
        const currencies = chunk.filter(([k]) => k === 'c').map(([, id]) => Number(id));
        const collections = chunk.filter(([k]) => k === 'k').map(([, id]) => id);
        const notifications = chunk.filter(([k]) => k === 'n').map(([, id]) => id);
        const broadcasts = chunk.filter(([k]) => k === 'b').map(([, id]) => id);
        const event: ChangeEvent = {
          kind: 'changes',
          pairs: chunk.filter(([k]) => k === 'p').map(([, id]) => id),
          users: chunk.filter(([k]) => k === 'u').map(([, id]) => id),
          ...(currencies.length > 0 ? { currencies } : {}),
          ...(collections.length > 0 ? { collections } : {}),
          ...(notifications.length > 0 ? { notifications } : {}),
          ...(broadcasts.length > 0 ? { broadcasts } : {}),
        };
        await this.bus.publish(event);
      }
    } catch (err) {
      this.log.warn({ err }, 'could not publish live changes');
    }
  }
}

/**
 * One bus event: sessions of a member that ended, either every token older than `tokenVersion` (a
 * version bump: password reset, role change, deactivation) or the sessions `sessionIds` names (logout,
 * ended from Settings or by an admin, DESIGN §11.1).
 */
export interface SessionsEndedEvent {
  kind: 'sessions-ended';
  userId: string;
  /** Tokens of an older version than this are no longer valid. */
  tokenVersion?: number;
  /** These sessions ended. */
  sessionIds?: string[];
}

/** True when a bus event is a `SessionsEndedEvent`. */
export function isSessionsEndedEvent(e: unknown): e is SessionsEndedEvent {
  const x = e as Partial<SessionsEndedEvent> | null;
  return (
    x?.kind === 'sessions-ended' &&
    typeof x.userId === 'string' &&
    (typeof x.tokenVersion === 'number' || Array.isArray(x.sessionIds))
  );
}

/** One bus event: the alert level changed (SPEC §3 defcon); every open page shows it at once. */
export interface DefconChangedEvent {
  kind: 'defcon';
  defconLvl: number;
  defconMsg: string;
}

/** True when a bus event is a `DefconChangedEvent`. */
export function isDefconChangedEvent(e: unknown): e is DefconChangedEvent {
  const x = e as Partial<DefconChangedEvent> | null;
  return x?.kind === 'defcon' && typeof x.defconLvl === 'number' && typeof x.defconMsg === 'string';
}

/**
 * The pairs, members, currencies and item collections changed, and the notifications and broadcasts
 * written (since the last flush of a subscriber).
 */
export interface ChangedIds {
  pairs: string[];
  users: string[];
  currencies: number[];
  collections: string[];
  notifications: string[];
  broadcasts: string[];
}

/**
 * The receiving side: calls `flush` with what the change events heard on `bus` named, merged over
 * `ms` milliseconds (one load per pair and per member however many requests touched it, DESIGN §9),
 * one flush at a time and in order. A failing flush is handed to `onError` and the next one still runs.
 * Returns the function that stops it (a flush under way finishes; none starts after).
 */
export function subscribeToChanges(
  bus: EventBus,
  ms: number,
  flush: (changed: ChangedIds) => Promise<void>,
  onError: (err: unknown) => void,
): () => void {
  const pairs = new Set<string>();
  const users = new Set<string>();
  const currencies = new Set<number>();
  const collections = new Set<string>();
  const notifications = new Set<string>();
  const broadcasts = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> = Promise.resolve();
  let stopped = false;
  const run = async () => {
    timer = null;
    const changed = {
      pairs: [...pairs],
      users: [...users],
      currencies: [...currencies],
      collections: [...collections],
      notifications: [...notifications],
      broadcasts: [...broadcasts],
    };
    pairs.clear();
    users.clear();
    currencies.clear();
    collections.clear();
    notifications.clear();
    broadcasts.clear();
    await flush(changed);
  };
  const unsubscribe = bus.subscribe((event) => {
    if (stopped || !isChangeEvent(event)) return;
    for (const p of event.pairs) pairs.add(p);
    for (const u of event.users) users.add(u);
    for (const c of event.currencies ?? []) if (Number.isSafeInteger(c)) currencies.add(c);
    for (const c of event.collections ?? []) if (typeof c === 'string') collections.add(c);
    for (const n of event.notifications ?? []) if (typeof n === 'string') notifications.add(n);
    for (const b of event.broadcasts ?? []) if (typeof b === 'string') broadcasts.add(b);
    if (timer) return;
    timer = setTimeout(() => {
      flushing = flushing.then(run).catch((err: unknown) => {
        if (!stopped) onError(err);
      });
    }, ms);
  });
  return () => {
    stopped = true;
    unsubscribe();
    if (timer) clearTimeout(timer);
  };
}

/**
 * What `onSocketAuthenticated` needs of the live hub (plugins/websocket.ts's `LiveHub` is one), declared
 * here so this floor does not import the plugin above it: the handler run when a socket of client type
 * `C` signs in.
 */
export interface SocketSignIns<C> {
  handlers: { onAuthenticated?(client: C): Promise<void> };
}

/**
 * Adds `handler` to what the live hub does when a socket signs in, after the handlers set before it,
 * so each module that owns a member's data pushes its own snapshot (orders, balances).
 */
export function onSocketAuthenticated<C>(hub: SocketSignIns<C>, handler: (client: C) => Promise<void>): void {
  const previous = hub.handlers.onAuthenticated;
  hub.handlers.onAuthenticated = async (client) => {
    await previous?.(client);
    await handler(client);
  };
}

/**
 * Clears `cache` whenever any currency changes anywhere (`watchChanges`): for kept answers that show a
 * currency's name or precision. Returns the function that stops listening.
 */
export function clearOnCurrencyChange(
  live: { changes: ChangePublisher; bus: EventBus },
  cache: { clear(): void },
): () => void {
  return watchChanges(live, (changed) => {
    if (changed.currencies.length > 0) cache.clear();
  });
}

/**
 * Calls `listener` with every change set committed anywhere: this process's own at once, before the bus
 * carries them (`ChangePublisher.onLocalChange`), and other replicas' as their bus events arrive (a few
 * milliseconds). For caches of answers that a change makes stale (lib/response-cache.ts). Returns the
 * function that stops listening.
 */
export function watchChanges(
  live: { changes: ChangePublisher; bus: EventBus },
  listener: (changed: ChangedIds) => void,
): () => void {
  const stopLocal = live.changes.onLocalChange((c) =>
    listener({
      pairs: [...c.pairs],
      users: [...c.users],
      currencies: [...c.currencies],
      collections: [...c.collections],
      notifications: [...c.notifications],
      broadcasts: [...c.broadcasts],
    }),
  );
  const stopRemote = live.bus.subscribe((event) => {
    if (!isChangeEvent(event)) return;
    listener({
      pairs: event.pairs,
      users: event.users,
      currencies: event.currencies ?? [],
      collections: event.collections ?? [],
      notifications: event.notifications ?? [],
      broadcasts: event.broadcasts ?? [],
    });
  });
  return () => {
    stopLocal();
    stopRemote();
  };
}
