/**
 * The leaderboard's Redis store, and the store the app uses (Redis when configured, else the table).
 * Reads other modules' tables: `balances` (the ledger's: a rebuild ranks every holder), `currencies` (which currencies are ranked) and `users` (private, inactive and system accounts stay off the ranking).
 */
import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { queryNamed } from '../../db/client.ts';
import { rankedHoldersPage } from './leaderboard.queries.ts';
import { type LeaderboardStore, type RankEntry, units } from './leaderboard.store.ts';
import { tableStore } from './leaderboard.table-store.ts';

// ---------------------------------------------------------------------------------------------------
// The Redis store. Per currency: a sorted set `z:<currency>` whose members all have score 0, so Redis
// orders them by their bytes; the member is the amount's complement to 2^128 - 1 in 32 lowercase hex
// digits (NUMERIC(38,9) holds fewer than 10^38 < 2^127 units), then the 24-character member id. Its byte
// order is therefore amount highest first, then member id ascending: the ranking, exactly (a double
// score would not be: above 2^53 units, 9,007,199.25 currency units, nearby amounts share a double).
// ZRANK is the number of entries ahead (O(log n)). A hash `h:<currency>` maps member id -> member string,
// so a change finds the entry it replaces. `mark` holds the horizon (ms since the epoch), written after
// the data it covers; a Redis that lost its data loses the mark with it and is rebuilt. `build` names the
// build (its `leaderboard_state` row's `built_at`, row `redis`): a Redis that holds another database's
// ranking under the same prefix, or an older copy, is not taken for this one's.

const MAX_KEY = (1n << 128n) - 1n;

/** The sorted-set member of `e`: byte order = rank order. */
export function memberOf(e: RankEntry): string {
  return (MAX_KEY - e.amount).toString(16).padStart(32, '0') + e.userId;
}

function fromMember(m: string): RankEntry {
  return { userId: m.slice(32), amount: MAX_KEY - BigInt(`0x${m.slice(0, 32)}`) };
}

/** Replaces the entries of one currency: ARGV = member id, new member ('' = leaves), repeated. */
const APPLY_SCRIPT = `
for i = 1, #ARGV, 2 do
  local u, m = ARGV[i], ARGV[i + 1]
  local old = redis.call('HGET', KEYS[2], u)
  if old and old ~= m then redis.call('ZREM', KEYS[1], old) end
  if m == '' then
    if old then redis.call('HDEL', KEYS[2], u) end
  elseif old ~= m then
    redis.call('ZADD', KEYS[1], 0, m)
    redis.call('HSET', KEYS[2], u, m)
  end
end
return 1`;

/**
 * The store the app uses: Redis (when `redis` is given) under `starlight:lb:<database name>:`, so
 * databases sharing a Redis keep their own rankings; else the table. For a script that rebuilds the
 * app's own ranking (`rebuildLeaderboard(db, appLeaderboardStore(redis, DATABASE_URL))`).
 */
export function appLeaderboardStore(redis: Redis | null, databaseUrl: string | undefined): LeaderboardStore {
  if (!redis) return tableStore();
  return redisStore(redis, `starlight:lb:${databaseUrl ? new URL(databaseUrl).pathname.slice(1) : 'pglite'}:`);
}

/** The ranking in Redis under `prefix` (the product uses `starlight:lb:`; tests a prefix of their own). */
export function redisStore(redis: Redis, prefix = 'starlight:lb:'): LeaderboardStore {
  const z = (c: number) => `${prefix}z:${c}`;
  const h = (c: number) => `${prefix}h:${c}`;
  const markKey = `${prefix}mark`;
  const buildKey = `${prefix}build`;
  return {
    kind: 'redis',
    async read(_db, currencyId, top, viewer, near) {
      const p = redis.pipeline();
      if (top > 0) p.zrange(z(currencyId), '0', String(top - 1));
      if (viewer) {
        p.hget(h(currencyId), viewer.userId);
        if (viewer.at) {
          const at = `(${memberOf(viewer.at)}`;
          p.zlexcount(z(currencyId), '-', at);
          p.zrange(z(currencyId), at, '-', 'BYLEX', 'REV', 'LIMIT', 0, near);
          p.zrange(z(currencyId), at, '+', 'BYLEX', 'LIMIT', 0, near);
        }
      }
      const res = (await p.exec()) ?? [];
      const out = res.map(([err, v]) => {
        if (err) throw err;
        return v;
      });
      const list = (v: unknown) => (v as string[]).map(fromMember);
      const topList = top > 0 ? list(out.shift()) : [];
      const kept = viewer ? (out[0] as string | null) : null;
      return {
        top: topList,
        kept: kept ? fromMember(kept).amount : null,
        ahead: viewer?.at ? Number(out[1]) : 0,
        before: viewer?.at ? list(out[2]) : [],
        after: viewer?.at ? list(out[3]) : [],
      };
    },
    async mark(tx) {
      const [v, build] = await redis.mget(markKey, buildKey);
      if (!v || !build) return null;
      const rows = await queryNamed<{ b: string }>(
        tx,
        'leaderboard_redis_build',
        sql`SELECT built_at::text AS b FROM leaderboard_state WHERE store = 'redis'`,
      );
      return rows[0]?.b === build ? new Date(Number(v)) : null;
    },
    async version() {
      return redis.get(markKey);
    },
    async apply(_tx, changes, mark) {
      const byCurrency = new Map<number, string[]>();
      for (const c of changes) {
        const args = byCurrency.get(c.currencyId) ?? [];
        args.push(c.userId, c.amount === null ? '' : memberOf({ userId: c.userId, amount: c.amount }));
        byCurrency.set(c.currencyId, args);
      }
      for (const [c, args] of byCurrency) {
        for (let i = 0; i < args.length; i += 2000) {
          await redis.eval(APPLY_SCRIPT, 2, z(c), h(c), ...args.slice(i, i + 2000));
        }
      }
      // Last: a failure above leaves the old mark, and the next tick applies the same states again.
      await redis.set(markKey, String(mark.getTime()));
    },
    async rebuild(tx, mark) {
      // Built under temporary keys, then renamed over the live ones: readers never see half a ranking.
      const tmp = `${prefix}build:`;
      const currencies = (await tx.execute<{ c: number }>(sql`SELECT currency_id AS c FROM currencies`)).rows.map((r) =>
        Number(r.c),
      );
      const tz = (c: number) => `${tmp}z:${c}`;
      const th = (c: number) => `${tmp}h:${c}`;
      await redis.del(...currencies.flatMap((c) => [tz(c), th(c)]), markKey, buildKey);
      const built = new Set<number>();
      let afterUser = '';
      let afterCurrency = 0;
      for (;;) {
        const page = await rankedHoldersPage(tx, afterUser, afterCurrency, 20_000);
        if (page.length === 0) break;
        const p = redis.pipeline();
        const groups = new Map<number, { zs: string[]; hs: string[] }>();
        for (const r of page) {
          const c = Number(r.currency_id);
          const m = memberOf({ userId: r.user_id, amount: units(r.amount) });
          const g = groups.get(c) ?? { zs: [], hs: [] };
          g.zs.push('0', m);
          g.hs.push(r.user_id, m);
          groups.set(c, g);
        }
        for (const [c, g] of groups) {
          p.zadd(tz(c), ...g.zs);
          p.hset(th(c), ...g.hs);
          built.add(c);
        }
        const res = await p.exec();
        for (const [err] of res ?? []) if (err) throw err;
        const last = page[page.length - 1] as (typeof page)[number];
        afterUser = last.user_id;
        afterCurrency = Number(last.currency_id);
      }
      const buildRow = await tx.execute<{ b: string }>(sql`
        INSERT INTO leaderboard_state (store, mark, built_at) VALUES ('redis', ${mark.toISOString()}::timestamptz, now())
        ON CONFLICT (store) DO UPDATE SET mark = excluded.mark, built_at = excluded.built_at
        RETURNING built_at::text AS b`);
      const m = redis.multi();
      for (const c of new Set([...currencies, ...built])) {
        if (built.has(c)) m.rename(tz(c), z(c)).rename(th(c), h(c));
        else m.del(z(c), h(c));
      }
      m.set(markKey, String(mark.getTime())).set(buildKey, buildRow.rows[0]?.b ?? '');
      const res = await m.exec();
      for (const [err] of res ?? []) if (err) throw err;
    },
  };
}
