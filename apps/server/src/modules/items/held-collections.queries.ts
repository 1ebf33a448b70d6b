/** SQL of the collections a member holds items of (SPEC §2 Holdings, Game Items; DESIGN §7). */
import { COUNT_CAP, type HeldCollection } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';

/** The most collections one member's list names (collections are made by creators: a few). */
export const MAX_HELD_COLLECTIONS = 500;

/**
 * The collections `ownerId` holds items of, by name, each with their count of its items (up to
 * `COUNT_CAP`, `countCapped` past it). All from the index `items_owner` (owner_id, collection_id, name),
 * read index-only: the distinct collections by a skip scan (one probe per collection, each seeking the
 * next collection id past the last), then each collection's items counted in its range, stopped at the
 * cap. So a member holding a million items of one collection costs COUNT_CAP entries, not a million.
 */
export async function findHeldCollections(db: DbOrTx, ownerId: string): Promise<HeldCollection[]> {
  const res = await db.execute<{ id: string; name: string; n: string }>(sql`
    WITH RECURSIVE held(collection_id, k) AS (
      (SELECT i.collection_id, 1 FROM items i WHERE i.owner_id = ${ownerId} ORDER BY i.collection_id LIMIT 1)
      UNION ALL
      SELECT (SELECT i.collection_id FROM items i
              WHERE i.owner_id = ${ownerId} AND i.collection_id > held.collection_id
              ORDER BY i.collection_id LIMIT 1), held.k + 1
      FROM held WHERE held.collection_id IS NOT NULL AND held.k < ${MAX_HELD_COLLECTIONS}
    )
    SELECT c.id, c.name, n.n FROM held
    JOIN item_collections c ON c.id = held.collection_id
    CROSS JOIN LATERAL (
      SELECT count(*) AS n FROM (
        SELECT 1 FROM items i WHERE i.owner_id = ${ownerId} AND i.collection_id = held.collection_id
        LIMIT ${COUNT_CAP + 1}
      ) x
    ) n
    ORDER BY c.name, c.id`);
  return res.rows.map((r) => {
    const n = Number(r.n);
    return { _id: r.id, name: r.name, count: Math.min(n, COUNT_CAP), countCapped: n > COUNT_CAP };
  });
}
