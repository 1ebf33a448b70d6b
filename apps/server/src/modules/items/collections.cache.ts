/**
 * The collection list a visitor reads: every collection, the same for every visitor, so a
 * replica keeps its answer for up to `RESPONSE_TTL_MS` (1 s). A collection created through this process
 * drops it at once (`clear`); one created through another replica, or a creator's new nickname, shows
 * within the TTL. A signed-in caller's answer (with their own collections' app URLs) is read afresh.
 */
import { collectionsResponse } from '@starlight/shared';
import type { Db } from '../../db/client.ts';
import { type JsonBody, ResponseCache, serializeAnswer } from '../../lib/response-cache.ts';
import * as items from './items.service.ts';

/** The kept visitor's collection list of one process. */
export interface CollectionAnswers {
  /** The `getCollections` body (JSON) a visitor gets. Throws what the read throws. */
  forVisitor(): Promise<JsonBody>;
  /** Drops the kept list: call it once a collection was created. */
  clear(): void;
}

/** Starts a process's kept visitor's collection list, read from `db`. */
export function startCollectionAnswers(db: Db): CollectionAnswers {
  const cache = new ResponseCache<JsonBody>();
  return {
    forVisitor: () =>
      cache.get('collections', 'visitor', async () =>
        serializeAnswer(collectionsResponse, await items.getCollections(db, null)),
      ),
    clear: () => cache.clear(),
  };
}
