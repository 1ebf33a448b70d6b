/**
 * The synth chip benchmark (issue 11 §4): chips opened per second through the API
 * (POST /api/inventory/openSynthChips {amount: 1}), each request burning one chip (category 33) and
 * creating 5 ship items. Before the load every member is minted Credits by the admin and buys enough chips
 * (100 at a time) for the whole run; the bench server's sale holds CHIP_SUPPLY (bench/lib/server.ts).
 */
import type { RawRequest } from 'autocannon';
import { mapLimit } from '../lib/api.ts';
import { type BenchContext, measure, type Suite, throughputFigures } from '../lib/context.ts';
import { type BenchMember, registerFundedMembers } from '../lib/members.ts';
import { psql } from '../lib/postgres.ts';

/** Seeded Credits (apps/server/src/db/seed.ts) and the chip's price in them (DESIGN §7). */
const CREDITS = 3;
const CHIP_PRICE = 500;
/** SPEC §3 category of an opened chip (a burn). */
const CATEGORY_OPENED = 33;
const SHIPS_PER_CHIP = 5;
/** The most chips one buySynthChips request takes. */
const BUY_BATCH = 100;
/**
 * Opens per second the chips are bought for, with room to spare: a member who runs out answers 409 and
 * spoils the rate, so the run logs it.
 */
const RATE_CEILING = 3000;

interface Sale {
  remaining: number;
  currencyId: number;
}

/** Category 33 rows (and chips in them) and Alpha ships owned by this run's `opener*` members. */
async function opened(ctx: BenchContext, chipId: number): Promise<{ rows: number; chips: number; ships: number }> {
  const out = await psql(
    ctx.pg,
    ctx.database,
    `SELECT (SELECT count(*) FROM bank_transactions WHERE currency_id = ${chipId} AND category = ${CATEGORY_OPENED})
       || '|' || (SELECT coalesce(sum(amount), 0)::bigint FROM bank_transactions
                   WHERE currency_id = ${chipId} AND category = ${CATEGORY_OPENED})
       || '|' || (SELECT count(*) FROM items i JOIN users u ON u.id = i.owner_id WHERE u.nickname LIKE 'opener${ctx.tag}%')`,
  );
  const [rows = '0', chips = '0', ships = '0'] = out.split('|');
  return { rows: Number(rows), chips: Number(chips), ships: Number(ships) };
}

/** The fewest chips any of this run's `opener*` members still holds (0: someone ran out during the run). */
async function fewestLeft(ctx: BenchContext, chipId: number): Promise<number> {
  const out = await psql(
    ctx.pg,
    ctx.database,
    `SELECT coalesce(min(coalesce(b.amount, 0)), 0)::bigint FROM users u
       LEFT JOIN balances b ON b.user_id = u.id AND b.currency_id = ${chipId}
      WHERE u.nickname LIKE 'opener${ctx.tag}%'`,
  );
  return Number(out);
}

export const chipsSuite: Suite = {
  name: 'chips',
  cases: ['chips_open'],
  async run(ctx, selected, report) {
    if (!selected('chips_open')) return;
    const started = Date.now();
    const count = Number(process.env.BENCH_MEMBERS || 200);
    const { durationS, warmupS } = ctx.settings;
    // Requests go round the members, so each opens about total / count chips.
    const wanted = Math.max(
      BUY_BATCH,
      Math.ceil((RATE_CEILING * (durationS + warmupS)) / count / BUY_BATCH) * BUY_BATCH,
    );
    const sale = await ctx.api.get<Sale>('/api/inventory/synthChips');
    // A sale seeded long ago (a database from make scale-seed) may hold fewer: then each member gets an
    // equal share of what is left, logged; a member who runs out answers 409 and fails the case.
    const each = Math.min(wanted, Math.floor(sale.remaining / count));
    if (each < 1)
      throw new Error(`The sale holds ${sale.remaining} chips, the bench needs ${wanted * count}: raise CHIP_SUPPLY`);
    if (each < wanted) ctx.log(`chips: the sale holds ${sale.remaining} chips: ${each} a member (not ${wanted})`);
    const members = await registerFundedMembers(ctx, count, 'opener', [CREDITS], String(each * CHIP_PRICE));
    const batches = (n: number): number[] =>
      Array.from({ length: Math.ceil(n / BUY_BATCH) }, (_, i) => Math.min(BUY_BATCH, n - i * BUY_BATCH));
    const buys = members.flatMap((m) => batches(each).map((amount) => ({ m, amount })));
    await mapLimit(buys, 16, ({ m, amount }) => ctx.api.post('/api/inventory/buySynthChips', { amount }, m.token));
    ctx.log(
      `chips: ${count} members with ${each} chips each ready in ${((Date.now() - started) / 1000).toFixed(1)} s; chips_open...`,
    );

    const before = await opened(ctx, sale.currencyId);
    const open = (n: number): RawRequest => ({
      method: 'POST',
      path: '/api/inventory/openSynthChips',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${(members[n % members.length] as BenchMember).token}`,
      },
      body: JSON.stringify({ amount: 1 }),
    });
    const measured = await measure(ctx, open);
    const after = await opened(ctx, sale.currencyId);
    const rows = after.rows - before.rows;
    const chips = after.chips - before.chips;
    const ships = after.ships - before.ships;
    // Every 200 answer opened exactly one chip: one category 33 row of 1 chip and 5 ships; only requests
    // cut off in flight may add rows unseen.
    const rowsMatch =
      rows >= measured.okWithWarmup &&
      rows <= measured.okWithWarmup + measured.cutOff &&
      chips === rows &&
      ships === rows * SHIPS_PER_CHIP;
    if (!rowsMatch)
      ctx.log(`chips: ${rows} opened rows (${chips} chips, ${ships} ships) for ${measured.okWithWarmup} answers 200`);
    const left = await fewestLeft(ctx, sale.currencyId);
    if (left === 0) ctx.log('chips: a member ran out of chips during the run: raise RATE_CEILING');
    report({
      ...throughputFigures(ctx, 'chips_open', 'opens_per_s', measured),
      ledger_rows_match: rowsMatch,
      opened: rows,
      ships,
      members: count,
      chips_each: each,
      chips_left_min: left,
    });
  },
};
