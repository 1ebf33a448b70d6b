/**
 * The alert level every page reads: one row, the same for everyone, so a replica keeps its
 * answer for up to `RESPONSE_TTL_MS` (1 s). A change drops it at once: this process's own (`clear`, after
 * the commit) and any replica's, heard as the bus's `defcon` event that also pushes it to every socket.
 */
import { defconResponse } from '@starlight/shared';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { isDefconChangedEvent } from '../../lib/live-changes.ts';
import { type JsonBody, ResponseCache, serializeAnswer } from '../../lib/response-cache.ts';
import { getDefconLevel } from './defcon.service.ts';

/** The kept alert level of one process. */
export interface DefconAnswers {
  /** The `getDefconLevel` body (JSON). Throws what the read throws. */
  get(): Promise<JsonBody>;
  /** Drops the kept answer: call it once a change committed. */
  clear(): void;
  /** Stops listening to the bus. */
  stop(): void;
}

/** Starts `app`'s kept alert level, read from `db`. */
export function startDefconAnswers(app: FastifyInstance, db: Db): DefconAnswers {
  const cache = new ResponseCache<JsonBody>();
  const stop = app.live.bus.subscribe((event) => {
    if (isDefconChangedEvent(event)) cache.clear();
  });
  return {
    get: () => cache.get('defcon', 'level', async () => serializeAnswer(defconResponse, await getDefconLevel(db))),
    clear: () => cache.clear(),
    stop,
  };
}
