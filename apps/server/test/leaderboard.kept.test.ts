/**
 * The kept leaderboard, in both stores (the `leaderboard_entries` table, and Redis
 * sorted sets under a prefix of this run): after random transfers, mints and burns through the API, with
 * ties, private, deactivated and system accounts, whales a double cannot tell apart, and a member who
 * falls to zero, the route answers exactly what the brute-force ranking (the window over `balances`)
 * answers, for a visitor and for every member; a member sees their own posting at once; a rebuild from
 * scratch gives the same ranking.
 */
import { randomBytes } from 'node:crypto';
import type { Currency, LeaderboardResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { redisStore } from '../src/modules/leaderboard/leaderboard.redis-store.ts';
import type { LeaderboardStore } from '../src/modules/leaderboard/leaderboard.store.ts';
import { rebuildLeaderboard, syncLeaderboard } from '../src/modules/leaderboard/leaderboard.sync.ts';
import { tableStore } from '../src/modules/leaderboard/leaderboard.table-store.ts';
import { bankCalls } from './bank.helpers.ts';
import {
  balanceOf,
  call,
  expectLedgerBalanced,
  type Member,
  mint,
  registerMember,
  testConfig,
  useTestApp,
} from './helpers.ts';
import { bruteForceLeaderboard, caughtUp } from './leaderboard.helpers.ts';

const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 2 });
const prefix = `test-lb-${randomBytes(6).toString('hex')}:`;
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

/** A small seeded PRNG (mulberry32), so a failing run can be replayed from the seed it prints. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

describe.each([
  // Blocks of 2 entries (1,000 in the product), so that the ranking's block counts split as members move.
  [
    'the table store on PostgreSQL',
    'table',
    () => buildApp(testConfig(), { leaderboardStore: tableStore({ blockSize: 2 }) }),
  ],
  [
    'the table store on PGlite',
    'table',
    () =>
      buildApp(testConfig({ DATABASE_URL: undefined, DATA_DIR: 'memory://' }), {
        leaderboardStore: tableStore({ blockSize: 2 }),
      }),
  ],
  ['Redis', 'redis', () => buildApp(testConfig(), { leaderboardStore: redisStore(redis, prefix) })],
])('the kept leaderboard in %s', (_name, kind, build) => {
  const t = useTestApp({}, { build });
  const bank = bankCalls(t);
  const store = (): LeaderboardStore => t.built.leaderboard.store;

  async function seen(currencyId: number, viewer?: Member): Promise<LeaderboardResponse> {
    const res = await call(t.app, viewer?.token, 'POST', '/api/user/leaderboard', { currencyId });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<LeaderboardResponse>();
  }

  /** The route equals the brute-force ranking for a visitor and for each of `viewers`. */
  async function expectExact(coin: Currency, viewers: Member[], label: string) {
    const db = t.built.database.db;
    expect(await seen(coin.currencyId), `${label}: visitor`).toEqual(
      await bruteForceLeaderboard(db, coin.currencyId, null),
    );
    for (const v of viewers) {
      expect(await seen(coin.currencyId, v), `${label}: ${v.nickname}`).toEqual(
        await bruteForceLeaderboard(db, coin.currencyId, v.id),
      );
    }
  }

  it('equals the brute-force ranking after random postings, for a visitor and every member', async () => {
    expect(store().kind).toBe(kind);
    const seed = Number.parseInt(randomBytes(4).toString('hex'), 16);
    const rand = prng(seed);
    const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)] as T;
    const label = (s: string) => `${kind} seed ${seed} ${s}`;
    const coin = await bank.newCurrency({ precision: 2 });
    const c = coin.currencyId;
    const members: Member[] = [];
    for (let i = 0; i < 12; i++) members.push(await registerMember(t.app, 'lbk'));
    const [priv1, priv2, inactive, system, zero, whaleA, whaleB] = members as [
      Member,
      Member,
      Member,
      Member,
      Member,
      Member,
      Member,
    ];
    // Ties from the start: several members hold exactly 5.
    const start = ['5', '5', '12.5', '1'];
    for (const [i, m] of members.entries()) await mint(t.app, t.admin, m.nickname, c, start[i % 4] ?? '1');
    // Whales a double cannot tell apart (about 10^24 units, 10^7 apart: one double): whaleB must rank first.
    await mint(t.app, t.admin, whaleA.nickname, c, '1000000000000000'); // 5 + this
    await mint(t.app, t.admin, whaleB.nickname, c, '999999999999992.51'); // 12.5 + this
    for (const m of [priv1, priv2]) {
      const res = await call(t.app, m.token, 'POST', '/api/user/updateProfile', { isAnonymous: true });
      expect(res.statusCode, res.body).toBe(200);
    }
    const setActive = async (m: Member, active: boolean) => {
      const res = await call(t.app, t.admin.token, 'POST', '/api/user/administrateUser', {
        nickname: m.nickname,
        active,
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await setActive(inactive, false);
    // A system account (as the synth chip sale's): never ranked, whatever it holds.
    await t.built.database.db.execute(
      sql`UPDATE users SET is_system = true, updated_at = now() WHERE id = ${system.id}`,
    );
    const viewers = members.filter((m) => m !== inactive);
    const movers = members.filter((m) => m !== inactive && m !== system);
    await caughtUp(t.built);
    await expectExact(coin, viewers, label('start'));
    const top = await seen(c);
    expect(top.leaders.slice(0, 2)).toEqual([
      { rank: 1, nickname: whaleB.nickname, amount: '1000000000000005.01' },
      { rank: 2, nickname: whaleA.nickname, amount: '1000000000000005.00' },
    ]);
    expect(JSON.stringify(top)).not.toContain(inactive.nickname);
    expect(JSON.stringify(top)).not.toContain(system.nickname);
    expect(JSON.stringify(top)).not.toContain(priv1.nickname);

    for (let round = 1; round <= 4; round++) {
      for (let op = 0; op < 8; op++) {
        const r = rand();
        const m = pick(movers);
        if (r < 0.5) {
          const to = pick(movers.filter((x) => x !== m));
          const held = Number(await balanceOf(t.app, m, c));
          const amount = Math.min(held, pick([1, 2, 5, 0.5]));
          if (amount >= 0.01) {
            const res = await bank.transfer(m, to.nickname, c, String(amount));
            expect(res.statusCode, res.body).toBe(200);
          }
        } else if (r < 0.8) {
          await mint(t.app, t.admin, m.nickname, c, String(pick([1, 2, 5, 7.5])));
        } else {
          const held = Number(await balanceOf(t.app, m, c));
          const amount = Math.min(held, pick([1, 2, 5]));
          if (amount >= 0.01) {
            const res = await bank.burn(m.nickname, c, String(amount));
            expect(res.statusCode, res.body).toBe(200);
          }
        }
      }
      if (round === 2) {
        // A member falls to zero: they leave the ranking (no position, not among the leaders).
        const held = await balanceOf(t.app, zero, c);
        if (held !== '0') expect((await bank.burn(zero.nickname, c, held)).statusCode).toBe(200);
        // The deactivated member comes back: ranked again.
        await setActive(inactive, true);
      }
      if (round === 3) await setActive(inactive, false);
      await caughtUp(t.built);
      await expectExact(coin, viewers, label(`round ${round}`));
      if (kind === 'table') {
        // The block counts cover every entry once, no block holds more than twice the block size (2 here:
        // past 4 it splits), so the entries take at least entries/4 blocks. (How many more depends on the
        // random postings: emptied blocks go, and blocks of 3 or 4 stay as they are.)
        const res = await t.built.database.db.execute<{ blocks: string; n: string; entries: string; most: string }>(sql`
          SELECT (SELECT count(*) FROM leaderboard_blocks WHERE currency_id = ${c}) AS blocks,
                 (SELECT coalesce(sum(n), 0) FROM leaderboard_blocks WHERE currency_id = ${c}) AS n,
                 (SELECT coalesce(max(n), 0) FROM leaderboard_blocks WHERE currency_id = ${c}) AS most,
                 (SELECT count(*) FROM leaderboard_entries WHERE currency_id = ${c}) AS entries`);
        const counts = res.rows[0];
        expect(Number(counts?.most)).toBeLessThanOrEqual(4);
        expect(Number(counts?.blocks)).toBeGreaterThanOrEqual(Math.ceil(Number(counts?.entries) / 4));
        expect(Number(counts?.n)).toBe(Number(counts?.entries));
      }
      if (round === 2) {
        expect((await seen(c, zero)).position).toBeNull();
        expect(JSON.stringify(await seen(c))).not.toContain(zero.nickname);
        expect(JSON.stringify(await seen(c))).toContain(inactive.nickname);
      }
    }
    // From scratch: the same ranking.
    await rebuildLeaderboard(t.built.database.db, store());
    await expectExact(coin, viewers, label('rebuilt'));
    await expectLedgerBalanced(t.app, t.admin);
  });

  it("shows a member's own posting at once, before the job has followed it", async () => {
    const coin = await bank.newCurrency({ precision: 0 });
    const c = coin.currencyId;
    const members: Member[] = [];
    for (const amount of ['30', '20', '10', '10']) {
      const m = await registerMember(t.app, 'lbr');
      await mint(t.app, t.admin, m.nickname, c, amount);
      members.push(m);
    }
    await caughtUp(t.built);
    const [first, , last] = members as [Member, Member, Member];
    // The last climbs to the top, and the first drops to nothing: each sees it at once.
    await mint(t.app, t.admin, last.nickname, c, '100');
    await bank.burn(first.nickname, c, '30');
    const climbed = await seen(c, last);
    expect(climbed.position).toBe(1);
    expect(climbed.balance).toBe('110');
    expect(climbed.leaders[0]).toEqual({ rank: 1, nickname: last.nickname, amount: '110' });
    expect(climbed.leaders.map((l) => l.rank)).toEqual(climbed.leaders.map((_, i) => i + 1));
    const gone = await seen(c, first);
    expect(gone).toMatchObject({ position: null, balance: null, around: [] });
    expect(JSON.stringify(gone)).not.toContain(first.nickname);
    await caughtUp(t.built);
    await expectExact(coin, members, 'after the tick');
    await expectLedgerBalanced(t.app, t.admin);
  });
});

describe('the kept leaderboard in Redis, lost or foreign', () => {
  const own = `test-lb-${randomBytes(6).toString('hex')}:`;
  const t = useTestApp({}, { build: () => buildApp(testConfig(), { leaderboardStore: redisStore(redis, own) }) });
  afterAll(async () => {
    const keys = await redis.keys(`${own}*`);
    if (keys.length > 0) await redis.del(...keys);
  });

  it('is rebuilt by the next tick when Redis lost it, or holds a ranking built for another database', async () => {
    const bank = bankCalls(t);
    const coin = await bank.newCurrency({ precision: 0 });
    const m = await registerMember(t.app, 'lbl');
    await mint(t.app, t.admin, m.nickname, coin.currencyId, '42');
    await caughtUp(t.built);
    const db = t.built.database.db;
    const store = t.built.leaderboard.store;
    const exact = async () =>
      expect(
        (await call(t.app, undefined, 'POST', '/api/user/leaderboard', { currencyId: coin.currencyId })).json(),
      ).toEqual(await bruteForceLeaderboard(db, coin.currencyId, null));
    await exact();
    // Lost: Redis restarted empty (the sets and the mark are gone).
    await redis.del(...(await redis.keys(`${own}*`)));
    expect(await syncLeaderboard(db, store, { wait: true })).toBe('rebuilt');
    await exact();
    // Foreign: the mark is there but names another build (another database under the same prefix).
    await redis.set(`${own}build`, 'another database');
    expect(await syncLeaderboard(db, store, { wait: true })).toBe('rebuilt');
    await exact();
    expect(await syncLeaderboard(db, store, { wait: true })).not.toBe('rebuilt');
  });
});
