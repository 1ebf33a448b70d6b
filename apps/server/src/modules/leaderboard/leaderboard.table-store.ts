/**
 * The leaderboard's table store: the ranking in `leaderboard_entries` (currency, member, amount), counted
 * per block of entries in `leaderboard_blocks`, its mark in `leaderboard_state`.
 * Reads other modules' tables: `balances` (the ledger's: a rebuild ranks every holder), `currencies` (which currencies are ranked) and `users` (private, inactive and system accounts stay off the ranking).
 */
import { sql } from 'drizzle-orm';
import { type DbOrTx, queryNamed } from '../../db/client.ts';
import { pgArray } from '../../db/pg-array.ts';
import {
  type LeaderboardStore,
  numeric,
  type RankChange,
  type RankEntry,
  ranksAhead,
  units,
} from './leaderboard.store.ts';

// ---------------------------------------------------------------------------------------------------
// The table store: `leaderboard_entries` (currency, member, amount), index (currency, amount DESC, member).

interface EntryRow extends Record<string, unknown> {
  part: string;
  /** Not `user_id`, nor `amount` below: an output column of that name is what `ORDER BY` would sort, as text. */
  uid: string | null;
  amt: string;
}

/**
 * The ranking in `leaderboard_entries`, its mark in `leaderboard_state` (store `table`), both written in
 * the job's transaction. The top and the neighbours are index range scans of `leaderboard_entries_rank`;
 * the count above the viewer is an index-only count of that range (it grows with the viewer's rank).
 */
export function tableStore(opts: { blockSize?: number } = {}): LeaderboardStore {
  const B = opts.blockSize ?? BLOCK;
  return {
    kind: 'table',
    async read(db, currencyId, top, viewer, near) {
      const c = currencyId;
      const topPart = sql`(SELECT 't' AS part, user_id::text AS uid, amount::text AS amt FROM leaderboard_entries
                           WHERE currency_id = ${c}::int ORDER BY amount DESC, user_id LIMIT ${top}::int)`;
      if (!viewer) {
        const rows = await queryNamed<EntryRow>(db, 'leaderboard_table_top', topPart);
        return { top: rows.map(entry), kept: null, ahead: 0, before: [], after: [] };
      }
      const u = viewer.userId;
      const keptPart = sql`SELECT 'k', NULL, amount::text AS amt FROM leaderboard_entries
                           WHERE currency_id = ${c}::int AND user_id = ${u}::bpchar`;
      if (!viewer.at) {
        // Not ranked now: only whether a kept entry of theirs must be left out of the top.
        const rows = await queryNamed<EntryRow>(db, 'leaderboard_table_kept', sql`${topPart} UNION ALL ${keptPart}`);
        const kept = rows.find((r) => r.part === 'k');
        const top = rows.filter((r) => r.part === 't').map(entry);
        return { top, kept: kept ? units(kept.amt) : null, ahead: 0, before: [], after: [] };
      }
      const a = numeric(viewer.at.amount);
      const au = viewer.at.userId;
      // Planned for these values each time (not a named prepared statement): a generic plan does not know
      // whether the viewer sits in a large tie, and may scan the tie.
      const res = await db.execute<EntryRow>(
        sql`${topPart}
        UNION ALL ${keptPart}
        UNION ALL
        SELECT 'n', NULL, (
          -- The block holding the viewer's key, the blocks before it, then a count inside it (three index
          -- ranges of leaderboard_entries_rank, each at most the block's size).
          WITH blk AS (
            SELECT start_neg, start_user FROM leaderboard_blocks
            WHERE currency_id = ${c}::int AND (start_neg, start_user) <= (-${a}::numeric, ${au}::text)
            ORDER BY start_neg DESC, start_user DESC LIMIT 1)
          SELECT (SELECT coalesce(sum(b.n), 0) FROM leaderboard_blocks b, blk
                  WHERE b.currency_id = ${c}::int AND (b.start_neg, b.start_user) < (blk.start_neg, blk.start_user))
               + (SELECT count(*) FROM leaderboard_entries e, blk
                  WHERE e.currency_id = ${c}::int AND e.amount = -blk.start_neg AND e.user_id >= blk.start_user::bpchar
                    AND e.user_id < (CASE WHEN -blk.start_neg = ${a}::numeric THEN ${au}::bpchar ELSE 'g'::bpchar END))
               + (SELECT count(*) FROM leaderboard_entries e, blk
                  WHERE e.currency_id = ${c}::int AND e.amount < -blk.start_neg AND e.amount > ${a}::numeric)
               + (SELECT count(*) FROM leaderboard_entries e, blk
                  WHERE e.currency_id = ${c}::int AND e.amount = ${a}::numeric
                    AND e.user_id < (CASE WHEN -blk.start_neg = ${a}::numeric THEN ''::bpchar ELSE ${au}::bpchar END))
        )::text
        UNION ALL
        (SELECT 'b', user_id::text AS uid, amount::text AS amt FROM leaderboard_entries
          WHERE currency_id = ${c}::int AND amount = ${a}::numeric AND user_id < ${au}::bpchar
          ORDER BY user_id DESC LIMIT ${near}::int)
        UNION ALL
        (SELECT 'b', user_id::text AS uid, amount::text AS amt FROM leaderboard_entries
          WHERE currency_id = ${c}::int AND amount > ${a}::numeric
          ORDER BY amount, user_id DESC LIMIT ${near}::int)
        UNION ALL
        (SELECT 'a', user_id::text AS uid, amount::text AS amt FROM leaderboard_entries
          WHERE currency_id = ${c}::int AND amount = ${a}::numeric AND user_id > ${au}::bpchar
          ORDER BY user_id LIMIT ${near}::int)
        UNION ALL
        (SELECT 'a', user_id::text AS uid, amount::text AS amt FROM leaderboard_entries
          WHERE currency_id = ${c}::int AND amount < ${a}::numeric
          ORDER BY amount DESC, user_id LIMIT ${near}::int)`,
      );
      const rows = res.rows;
      const part = (p: string) => rows.filter((r) => r.part === p).map(entry);
      const kept = rows.find((r) => r.part === 'k');
      const before = part('b').sort((x, y) => (ranksAhead(x, y) ? 1 : -1));
      const after = part('a').sort((x, y) => (ranksAhead(x, y) ? -1 : 1));
      return {
        top: part('t'),
        kept: kept ? units(kept.amt) : null,
        ahead: Number(rows.find((r) => r.part === 'n')?.amt ?? 0),
        before: before.slice(0, near),
        after: after.slice(0, near),
      };
    },
    async mark(tx) {
      const rows = await queryNamed<{ mark: string | Date }>(
        tx,
        'leaderboard_table_mark',
        sql`SELECT mark FROM leaderboard_state WHERE store = 'table'`,
      );
      return rows[0] ? new Date(rows[0].mark) : null;
    },
    async version(db) {
      const rows = await queryNamed<{ v: string }>(
        db,
        'leaderboard_table_version',
        sql`SELECT mark::text AS v FROM leaderboard_state WHERE store = 'table'`,
      );
      return rows[0]?.v ?? null;
    },
    async apply(tx, changes, mark) {
      if (changes.length > 0) {
        const col = <T extends string | number>(f: (c: RankChange) => T) => pgArray(changes.map(f));
        const cur = col((c) => c.currencyId);
        const usr = col((c) => c.userId);
        const amt = col((c) => (c.amount === null ? '0' : numeric(c.amount)));
        // The kept amounts being replaced, for the block counts.
        const old = await tx.execute<{ c: number; u: string; a: string }>(sql`
          SELECT e.currency_id AS c, e.user_id AS u, e.amount::text AS a
          FROM unnest(${cur}::int[], ${usr}::bpchar[]) AS v(c, u)
          JOIN leaderboard_entries e ON e.currency_id = v.c AND e.user_id = v.u`);
        const oldOf = new Map(old.rows.map((r) => [`${r.c}:${r.u}`, units(r.a)]));
        await tx.execute(sql`
          WITH v AS (SELECT * FROM unnest(${cur}::int[], ${usr}::bpchar[], ${amt}::numeric[]) AS v(c, u, a)),
          gone AS (DELETE FROM leaderboard_entries e USING v
                   WHERE v.a = 0 AND e.currency_id = v.c AND e.user_id = v.u)
          INSERT INTO leaderboard_entries (currency_id, user_id, amount)
          SELECT c, u, a FROM v WHERE a > 0
          ON CONFLICT (currency_id, user_id) DO UPDATE SET amount = excluded.amount
            WHERE leaderboard_entries.amount <> excluded.amount`);
        const deltas: Array<{ c: number; neg: string; u: string; d: number }> = [];
        for (const ch of changes) {
          const was = oldOf.get(`${ch.currencyId}:${ch.userId}`) ?? null;
          if (was === ch.amount) continue;
          if (was !== null) deltas.push({ c: ch.currencyId, neg: `-${numeric(was)}`, u: ch.userId, d: -1 });
          if (ch.amount !== null) deltas.push({ c: ch.currencyId, neg: `-${numeric(ch.amount)}`, u: ch.userId, d: 1 });
        }
        if (deltas.length > 0) await countIntoBlocks(tx, deltas, B);
      }
      await tx.execute(sql`
        INSERT INTO leaderboard_state (store, mark) VALUES ('table', ${mark.toISOString()}::timestamptz)
        ON CONFLICT (store) DO UPDATE SET mark = excluded.mark`);
    },
    async rebuild(tx, mark) {
      // DELETE, not TRUNCATE: readers keep the old ranking (MVCC) until this commits, rather than waiting on its lock.
      await tx.execute(sql`DELETE FROM leaderboard_entries`);
      await tx.execute(sql`
        INSERT INTO leaderboard_entries (currency_id, user_id, amount)
        SELECT b.currency_id, b.user_id, b.amount FROM balances b JOIN users u ON u.id = b.user_id
        WHERE b.amount > 0 AND u.is_active AND NOT u.is_system`);
      await tx.execute(sql`
        INSERT INTO leaderboard_state (store, mark, built_at) VALUES ('table', ${mark.toISOString()}::timestamptz, now())
        ON CONFLICT (store) DO UPDATE SET mark = excluded.mark, built_at = excluded.built_at`);
      await tx.execute(sql`DELETE FROM leaderboard_blocks`);
      await tx.execute(sql`
        INSERT INTO leaderboard_blocks (currency_id, start_neg, start_user, n)
        SELECT currency_id, CASE WHEN rn = 0 THEN ${SENTINEL_NEG}::numeric ELSE -amount END,
               CASE WHEN rn = 0 THEN '' ELSE user_id::text END, least(${B}::int, total - rn)
        FROM (SELECT currency_id, amount, user_id,
                     row_number() OVER (PARTITION BY currency_id ORDER BY amount DESC, user_id) - 1 AS rn,
                     count(*) OVER (PARTITION BY currency_id) AS total
              FROM leaderboard_entries) x
        WHERE rn % ${B}::int = 0`);
      await tx.execute(sql`ANALYZE leaderboard_entries`);
      await tx.execute(sql`ANALYZE leaderboard_blocks`);
    },
  };
}

/** Ours: the entries per block of the table store (a block is split past twice this). */
const BLOCK = 1000;
/** The first block's start: before every entry (-amount > -10^30 for every NUMERIC(38,9) amount). */
const SENTINEL_NEG = '-1000000000000000000000000000000';

/**
 * Adds each delta (+1 an entry arrives at key (neg, u), -1 one leaves) to the count of the block holding
 * that key, making the currency's first block when missing; then splits the blocks grown past `2 * size`
 * into blocks of `size` (reading their entries, at most their count) and drops emptied ones.
 */
async function countIntoBlocks(
  tx: DbOrTx,
  deltas: Array<{ c: number; neg: string; u: string; d: number }>,
  size: number,
): Promise<void> {
  const cs = pgArray(deltas.map((x) => x.c));
  await tx.execute(sql`
    INSERT INTO leaderboard_blocks (currency_id, start_neg, start_user, n)
    SELECT DISTINCT c, ${SENTINEL_NEG}::numeric, '', 0 FROM unnest(${cs}::int[]) AS c
    ON CONFLICT DO NOTHING`);
  const res = await tx.execute<{ c: number; neg: string; u: string; n: number }>(sql`
    WITH v AS (SELECT * FROM unnest(${cs}::int[], ${pgArray(deltas.map((x) => x.neg))}::numeric[],
                                    ${pgArray(deltas.map((x) => x.u))}::text[], ${pgArray(deltas.map((x) => x.d))}::int[])
               AS v(c, neg, u, d)),
    hit AS (
      SELECT b.currency_id, b.start_neg, b.start_user, sum(v.d)::int AS d FROM v
      CROSS JOIN LATERAL (
        SELECT currency_id, start_neg, start_user FROM leaderboard_blocks
        WHERE currency_id = v.c AND (start_neg, start_user) <= (v.neg, v.u)
        ORDER BY start_neg DESC, start_user DESC LIMIT 1) b
      GROUP BY 1, 2, 3)
    UPDATE leaderboard_blocks b SET n = b.n + hit.d FROM hit
    WHERE b.currency_id = hit.currency_id AND b.start_neg = hit.start_neg AND b.start_user = hit.start_user
    RETURNING b.currency_id AS c, b.start_neg::text AS neg, b.start_user AS u, b.n`);
  for (const blk of res.rows) {
    const c = Number(blk.c);
    const n = Number(blk.n);
    if (n === 0 && blk.neg !== SENTINEL_NEG) {
      await tx.execute(sql`DELETE FROM leaderboard_blocks
        WHERE currency_id = ${c}::int AND start_neg = ${blk.neg}::numeric AND start_user = ${blk.u} AND n = 0`);
    }
    if (n <= 2 * size) continue;
    // The block's n entries, in rank order, from its start (two index ranges, each at most n rows).
    const rows = await tx.execute<{ u: string; a: string }>(sql`
      SELECT user_id::text AS u, amount::text AS a FROM (
        (SELECT user_id, amount FROM leaderboard_entries
          WHERE currency_id = ${c}::int AND amount = -${blk.neg}::numeric AND user_id >= ${blk.u}::bpchar
          ORDER BY user_id LIMIT ${n}::int)
        UNION ALL
        (SELECT user_id, amount FROM leaderboard_entries
          WHERE currency_id = ${c}::int AND amount < -${blk.neg}::numeric
          ORDER BY amount DESC, user_id LIMIT ${n}::int)) x
      ORDER BY amount DESC, user_id LIMIT ${n}::int`);
    const starts: Array<{ neg: string; u: string; n: number }> = [];
    for (let i = size; i < rows.rows.length; i += size) {
      const r = rows.rows[i] as { u: string; a: string };
      starts.push({ neg: `-${r.a}`, u: r.u, n: Math.min(size, rows.rows.length - i) });
    }
    await tx.execute(sql`UPDATE leaderboard_blocks SET n = ${size}::int
      WHERE currency_id = ${c}::int AND start_neg = ${blk.neg}::numeric AND start_user = ${blk.u}`);
    await tx.execute(sql`
      INSERT INTO leaderboard_blocks (currency_id, start_neg, start_user, n)
      SELECT ${c}::int, neg, u, n
      FROM unnest(${pgArray(starts.map((x) => x.neg))}::numeric[], ${pgArray(starts.map((x) => x.u))}::text[],
                  ${pgArray(starts.map((x) => x.n))}::int[]) AS v(neg, u, n)`);
  }
}

function entry(r: EntryRow): RankEntry {
  return { userId: r.uid ?? '', amount: units(r.amt) };
}
