/**
 * What committed requests changed, for the live feed (DESIGN §5): ids of trading pairs and of members.
 * Services collect them in a `LiveChanges` while they work; after the commit the route hands them to
 * the `ChangePublisher`, which merges them into one bus event every `PUBLISH_MS`; every server process
 * then loads and pushes the fresh book, trades, orders and balances to its sockets.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { EventBus } from './event-bus.ts';

/** The pairs and members one request (or batch) changed. */
export class LiveChanges {
  readonly pairs = new Set<string>();
  readonly users = new Set<string>();
  touchPair(pairId: string): void {
    this.pairs.add(pairId);
  }
  /** A member whose balances or orders changed (null, e.g. no fee collector, is ignored). */
  touchUser(userId: string | null): void {
    if (userId) this.users.add(userId);
  }
  get isEmpty(): boolean {
    return this.pairs.size === 0 && this.users.size === 0;
  }
}

/** One bus event: ids of pairs and of members that changed. */
export interface ChangeEvent {
  kind: 'changes';
  pairs: string[];
  users: string[];
}

/** True when a bus event is a `ChangeEvent`. */
export function isChangeEvent(e: unknown): e is ChangeEvent {
  const x = e as Partial<ChangeEvent> | null;
  return x?.kind === 'changes' && Array.isArray(x.pairs) && Array.isArray(x.users);
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
  private timer: NodeJS.Timeout | null = null;
  private readonly bus: EventBus;
  private readonly log: FastifyBaseLogger;

  constructor(bus: EventBus, log: FastifyBaseLogger) {
    this.bus = bus;
    this.log = log;
  }

  /** Queues `changes` for the next event. */
  add(changes: LiveChanges): void {
    if (changes.isEmpty) return;
    for (const p of changes.pairs) this.pairs.add(p);
    for (const u of changes.users) this.users.add(u);
    this.timer ??= setTimeout(() => void this.flush(), PUBLISH_MS);
  }

  /** Publishes what is queued now, in chunks that keep each NOTIFY payload small. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const ids = [
      ...[...this.pairs].map((id) => ['p', id] as const),
      ...[...this.users].map((id) => ['u', id] as const),
    ];
    this.pairs.clear();
    this.users.clear();
    try {
      for (let i = 0; i < ids.length; i += IDS_PER_EVENT) {
        const chunk = ids.slice(i, i + IDS_PER_EVENT);
        const event: ChangeEvent = {
          kind: 'changes',
          pairs: chunk.filter(([k]) => k === 'p').map(([, id]) => id),
          users: chunk.filter(([k]) => k === 'u').map(([, id]) => id),
        };
        await this.bus.publish(event);
      }
    } catch (err) {
      this.log.warn({ err }, 'could not publish live changes');
    }
  }
}
