/**
 * Serialized answers of public reads, shared by every visitor: a pair's order book, depth,
 * trades and candles are the same for everyone, so a replica builds each answer once per change instead
 * of once per request. Entries live in groups (a pair); a change of the group (heard from this process's
 * own commits at once, and from other replicas over the event bus) starts a new generation, so the next
 * read loads afresh. Every entry also expires after `ttlMs`, which bounds what a missed bus event (a
 * LISTEN connection being re-established) can leave stale. Concurrent misses of one key share one load.
 * Nothing here is the truth: PostgreSQL is; a cold or lost cache only costs a load.
 */
import type { FastifyReply } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { z } from 'zod';
import { upTo } from './lru.ts';

/** How long an answer is served at most (milliseconds). */
export const RESPONSE_TTL_MS = 1000;
/** Answers kept per process at most (the oldest go first). */
const MAX_ENTRIES = 2000;

/**
 * Kept answers of type `V` (`{}`-like: LRUCache keeps objects and strings), in groups. An answer is kept
 * under its group's generation: `invalidate` gives the group a new one, so its old answers (and loads under
 * way) are never read again and age out. Generations are themselves bounded (`maxGroups`, the least
 * recently used go first: a group per member would otherwise grow with the community); a group without
 * one reads the floor generation, which moves past every generation given so far whenever one is
 * forgotten, so a forgotten group's old answers are never read again either.
 */
export class ResponseCache<V extends object | string> {
  /** The last generation given out (to a group or as the floor). */
  private counter = 0;
  /** The generation of every group without one of its own. */
  private floor = 0;
  private readonly generations: LRUCache<string, number>;
  /** Bumped by `clear`: every group's answers at once. */
  private epoch = 0;
  private readonly entries: LRUCache<string, V, () => Promise<V>>;

  constructor(opts: { ttlMs?: number; max?: number; maxGroups?: number } = {}) {
    const max = opts.max ?? MAX_ENTRIES;
    this.generations = new LRUCache<string, number>({
      ...upTo(opts.maxGroups ?? max * 10),
      dispose: (_gen, _group, reason) => {
        if (reason === 'evict') this.floor = ++this.counter;
      },
    });
    this.entries = new LRUCache<string, V, () => Promise<V>>({
      ...upTo(max),
      ttl: opts.ttlMs ?? RESPONSE_TTL_MS,
      ttlAutopurge: false,
      // A load evicted while under way (the cache full) still answers its readers.
      ignoreFetchAbort: true,
      // A failed load is not kept: the next read tries again.
      fetchMethod: (_key, _stale, { context }) => context(),
    });
  }

  /**
   * The answer of `key` in `group`: the kept one while it is fresh and no change of the
   * group came after it, else `load()`'s (one load for every concurrent caller). Throws what `load` throws.
   */
  async get(group: string, key: string, load: () => Promise<V>): Promise<V> {
    const k = `${this.epoch}\u0000${group}\u0000${this.generations.get(group) ?? this.floor}\u0000${key}`;
    const value = await this.entries.fetch(k, { context: load });
    if (value === undefined) return load();
    return value;
  }

  /** Drops every answer of `group` (a load under way when it is called is not served afterwards). */
  invalidate(group: string): void {
    this.generations.set(group, ++this.counter);
  }

  /**
   * Drops every answer (loads under way included, as `invalidate`). The old entries are left to age
   * out: deleting them would abort the loads under way and fail their readers.
   */
  clear(): void {
    this.epoch += 1;
  }
}

/** A kept answer's body: JSON, already encoded as UTF-8. */
export type JsonBody = Buffer;

/**
 * `value` as the route's serializer would send it: checked against the response `schema` (unknown keys
 * dropped), then JSON, encoded once (a busy pair's book is large: encoding it again for every
 * request was most of a visitor's cost). Throws the schema's error when the value does not fit it (a bug,
 * as for the serializer).
 */
export function serializeAnswer<S extends z.ZodType>(schema: S, value: z.input<S>): JsonBody {
  return Buffer.from(JSON.stringify(schema.parse(value)));
}

/**
 * Sends `json` (an answer from `serializeAnswer`) as the route's 200 body, as it is: Fastify writes a
 * Buffer body untouched. Errors of `json` go to the error handler as any other.
 */
export async function sendJson(reply: FastifyReply, json: Promise<JsonBody>): Promise<void> {
  const body = await json;
  reply.type('application/json; charset=utf-8').send(body);
}
