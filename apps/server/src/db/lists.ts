/**
 * What the paged lists share (admin and member lists fast at a million members): the
 * nickname filters resolved to an id first, and the address filter as an index range.
 */
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryNamed } from './client.ts';

/**
 * The id of the account named `nickname` (any case, through the unique `lower(nickname)` index), or
 * null when there is none: a list filtered by it then matches nothing, without a query. A prepared
 * statement: every nickname filter of every list asks it.
 */
export async function idOfNickname(db: DbOrTx, nickname: string): Promise<string | null> {
  const rows = await queryNamed<{ id: string }>(
    db,
    'id_of_nickname',
    sql`SELECT id FROM users WHERE lower(nickname) = lower(${nickname}::text)`,
  );
  return rows[0]?.id ?? null;
}

/**
 * The condition "`column` starts with `prefix`" as a range on `column COLLATE "C"`, so that an index on
 * `(column COLLATE "C", …)` serves it (the access and admin logs' address filter: an IP address or its
 * first part, e.g. `203.0.113.`). The upper bound is `prefix` with its last character incremented:
 * under "C" the strings that start with `prefix` are exactly those in `[prefix, bound)`.
 */
export function startsWith(column: SQL, prefix: string): SQL {
  const chars = [...prefix];
  const last = chars.pop()?.codePointAt(0);
  const inRange = sql`(${column} COLLATE "C") >= ${prefix}`;
  if (last === undefined || last >= 0x10ffff) return sql`${inRange} AND starts_with(${column}, ${prefix})`;
  // Past the surrogates: a code point there is no character, the next one after them is.
  const next = last === 0xd7ff ? 0xe000 : last + 1;
  const bound = chars.join('') + String.fromCodePoint(next);
  return sql`${inRange} AND (${column} COLLATE "C") < ${bound}`;
}
