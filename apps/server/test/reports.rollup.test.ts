/**
 * The ledger rollup: after random postings through the API (taxed
 * transfers, mints, burns, distributions, orders and trades, forge), some landing while a tick runs or
 * while a posting transaction stays open across ticks, the kept currency stats, supply history and candles
 * equal the full scans they replaced, and the incremental audit equals the full recount; a rebuild gives
 * the rollup that was kept. On a database of its own, as reports.conservation.test.ts (the stored check, tampering).
 */
import { amount, type Currency, type Recipe } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { postEntries } from '../src/modules/ledger/ledger.posting.ts';
import { rebuildLedgerRollup } from '../src/modules/reports/rollup.queries.ts';
import { bankCalls } from './bank.helpers.ts';
import { type Market, placeOk } from './exchange.helpers.ts';
import { call, expectLedgerBalanced, type Member, makeAppOnOwnDatabase, mint, useTestApp } from './helpers.ts';
import { rollupChecks, seedRollupHistory } from './reports.rollup.helpers.ts';

const t = useTestApp({}, { build: () => makeAppOnOwnDatabase('rollup') });
const bank = bankCalls(t);
let coin: Currency;
let taxed: Currency;
let market: Market;
let recipe: Recipe;
let members: Member[];
const { db, tick, scanTotals, expectKeptEqualsScan } = rollupChecks(t, () => market);

beforeAll(async () => {
  ({ coin, taxed, market, recipe, members } = await seedRollupHistory(t));
});

/** One random operation through the API; `rnd` in [0, 1). */
async function randomPosting(rnd: () => number) {
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const [a, b] = [pick(members.slice(0, 3)), pick(members.slice(0, 3))];
  const value = (Math.floor(rnd() * 400) + 1) / 100;
  switch (Math.floor(rnd() * 7)) {
    case 0:
      await mint(t.app, t.admin, a.nickname, pick([coin, taxed]).currencyId, String(value));
      return;
    case 1:
      await bank.burn(a.nickname, pick([coin, taxed]).currencyId, String(value / 2));
      return;
    case 2:
      if (a !== b) await bank.transfer(a, b.nickname, pick([coin, taxed]).currencyId, String(value));
      return;
    case 3: {
      const res = await call(t.app, a.token, 'POST', '/api/bank/distributeCurrency', {
        currencyId: coin.currencyId,
        amount: String(Math.ceil(value) * 3),
        targetCurrencyId: taxed.currencyId,
      });
      expect([200, 409, 400]).toContain(res.statusCode);
      return;
    }
    case 4: {
      const seller = a;
      const buyer = b === a ? members[(members.indexOf(a) + 1) % 3]! : b;
      await mint(t.app, t.admin, seller.nickname, market.base.currencyId, '5');
      await mint(t.app, t.admin, buyer.nickname, market.quote.currencyId, '20');
      await placeOk(t.app, seller, market.pair._id, false, '2', '3');
      await placeOk(t.app, buyer, market.pair._id, true, String(1 + Math.floor(rnd() * 3)), '3');
      return;
    }
    case 5: {
      const res = await call(t.app, a.token, 'POST', '/api/forge/startProcess', { recipeId: recipe._id, quantity: 1 });
      expect(res.statusCode, res.body).toBe(200);
      const processId = res.json<{ process: { _id: string } }>().process._id;
      if (rnd() < 0.5) {
        const end = await call(t.app, a.token, 'POST', '/api/forge/endProcess', { processId, cancel: true });
        expect(end.statusCode, end.body).toBe(200);
      }
      return;
    }
    default:
      await tick();
  }
}

/** A deterministic generator (mulberry32), so a failure replays. */
function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

describe('the ledger rollup', () => {
  it('keeps stats, supply history and the audit equal to full scans through random postings and ticks', async () => {
    const ids = [coin.currencyId, taxed.currencyId, market.base.currencyId, market.quote.currencyId];
    await expectKeptEqualsScan(ids);
    const rnd = seeded(19);
    for (let round = 0; round < 4; round++) {
      // Postings one after another with ticks among them, then postings while a tick runs.
      for (let i = 0; i < 12; i++) await randomPosting(rnd);
      await Promise.all([tick(), randomPosting(rnd), randomPosting(rnd), tick()]);
      await expectKeptEqualsScan(ids);
      await tick();
      await expectKeptEqualsScan(ids);
    }
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('counts a posting whose transaction stays open across ticks exactly once', async () => {
    const before = await scanTotals({ currencyId: coin.currencyId });
    let release: () => void = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    let posted: () => void = () => {};
    const written = new Promise<void>((r) => {
      posted = r;
    });
    // A mint written in a transaction that commits only after later postings and two ticks.
    let started = '';
    const open = db().transaction(async (tx) => {
      started = (await tx.execute<{ s: string }>(sql`SELECT now()::text AS s`)).rows[0]!.s;
      await postEntries(
        tx,
        [
          {
            category: 10,
            currencyId: coin.currencyId,
            amount: amount(7_000_000_000n),
            executorId: t.admin.id,
            senderId: null,
            recipientId: members[0]!.id,
            note: 'held open',
          },
        ],
        null,
      );
      posted();
      await held;
    });
    await written;
    await bank.transfer(members[1]!, members[2]!.nickname, coin.currencyId, '1');
    const during = await tick();
    await tick();
    // The watermark waits at the open transaction's start: its row, stamped then, is not yet counted.
    const startedAt = (
      await db().execute<{ ms: string }>(sql`SELECT (extract(epoch FROM ${started}::timestamptz) * 1000)::text AS ms`)
    ).rows[0]!.ms;
    expect(during?.watermark.getTime()).toBeLessThanOrEqual(Math.ceil(Number(startedAt)));
    release();
    await open;
    await tick();
    const after = await scanTotals({ currencyId: coin.currencyId });
    expect(after).not.toEqual(before);
    await expectKeptEqualsScan([coin.currencyId]);
  });

  it('rebuilds to the same rollup it kept', async () => {
    await tick();
    const rows = async () =>
      (
        await db().execute<{ r: string }>(sql`
          SELECT concat_ws(' ', grain, bucket, currency_id, category, n, total, issued, removed, escrow_in, escrow_out) AS r
          FROM ledger_rollup ORDER BY grain, bucket, currency_id, category`)
      ).rows.map((x) => x.r);
    // Nothing posts meanwhile in this file: the kept rollup and the one rebuilt from scratch hold the same rows.
    const kept = await rows();
    await rebuildLedgerRollup(db());
    expect(await rows()).toEqual(kept);
    expect(kept.filter((r) => r.startsWith('day ')).length).toBeGreaterThanOrEqual(11);
    await expectKeptEqualsScan([coin.currencyId, taxed.currencyId]);
  });
});
