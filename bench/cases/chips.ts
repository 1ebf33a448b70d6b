/**
 * The synth chip benchmarks: `chips_buy`, one chip bought a request
 * (POST /api/inventory/buySynthChips {amount: 1}: 500 Credits to the sale and 1 chip from it, two
 * category 3 rows, every request on the sale's two hot balance rows); `chips_open`, chips opened per second
 * (POST /api/inventory/openSynthChips {amount: 1}), each request burning one chip (category 33) and
 * creating 5 ship items. Before the opens every member is minted Credits by the admin and buys enough chips
 * (100 at a time) for the whole run; the bench server's sale holds CHIP_SUPPLY (bench/lib/server.ts).
 */
import type { RawRequest } from 'autocannon';
import { mapLimit } from '../lib/api.ts';
import { type BenchContext, measure, type Suite, throughputFigures } from '../lib/context.ts';
import { type BenchMember, registerFundedMembers } from '../lib/members.ts';
import { psql } from '../lib/postgres.ts';
import type { Figures } from '../lib/results.ts';

/** Seeded Credits (apps/server/src/seed.ts) and the chip's price in them (DESIGN §7). */
const CREDITS = 3;
const CHIP_PRICE = 500;
/** SPEC §3 category of an opened chip (a burn), and of a purchase's two rows (transfers). */
const CATEGORY_OPENED = 33;
const CATEGORY_TRANSFER = 3;
const SHIPS_PER_CHIP = 5;
/** The most chips one buySynthChips request takes. */
const BUY_BATCH = 100;
/**
 * Opens per second the chips are bought for, with room to spare: a member who runs out answers 409 and
 * spoils the rate, so the run logs it.
 */
const RATE_CEILING = 8000;
/** The same for purchases, each member funded for this rate's share of the run. */
const BUY_RATE_CEILING = 8000;

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

/** Chips bought by this run's `chipbuyer*` members (category 3 rows of the chip currency to them). */
async function bought(ctx: BenchContext, chipId: number): Promise<{ rows: number; chips: number }> {
  const out = await psql(
    ctx.pg,
    ctx.database,
    `SELECT count(*) || '|' || coalesce(sum(t.amount), 0)::bigint FROM bank_transactions t
       JOIN users u ON u.id = t.recipient_id
      WHERE t.currency_id = ${chipId} AND t.category = ${CATEGORY_TRANSFER} AND u.nickname LIKE 'chipbuyer${ctx.tag}%'`,
  );
  const [rows = '0', chips = '0'] = out.split('|');
  return { rows: Number(rows), chips: Number(chips) };
}

/** `chips_buy`: members with Credits for every request buy one chip each request. */
async function runBuys(ctx: BenchContext, report: (figures: Figures) => void): Promise<void> {
  const count = Number(process.env.BENCH_MEMBERS || 200);
  const { durationS, warmupS } = ctx.settings;
  const sale = await ctx.api.get<Sale>('/api/inventory/synthChips');
  const each = Math.ceil((BUY_RATE_CEILING * (durationS + warmupS)) / count);
  if (sale.remaining < each * count) {
    // A sale seeded long ago (a database from make scale-seed) may hold too few: the case is left out.
    ctx.log(`chips: the sale holds ${sale.remaining} chips, chips_buy needs ${each * count}: left out`);
    return;
  }
  const members = await registerFundedMembers(ctx, count, 'chipbuyer', [CREDITS], String(each * CHIP_PRICE));
  ctx.log('chips: chips_buy...');
  const before = await bought(ctx, sale.currencyId);
  const measured = await measure(ctx, (n) => ({
    method: 'POST',
    path: '/api/inventory/buySynthChips',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${(members[n % members.length] as BenchMember).token}`,
    },
    body: JSON.stringify({ amount: 1 }),
  }));
  const after = await bought(ctx, sale.currencyId);
  const rows = after.rows - before.rows;
  // Every 200 answer bought exactly one chip; only requests cut off in flight may add rows unseen.
  const rowsMatch =
    rows >= measured.okWithWarmup &&
    rows <= measured.okWithWarmup + measured.cutOff &&
    after.chips - before.chips === rows;
  if (!rowsMatch) ctx.log(`chips: ${rows} purchase rows for ${measured.okWithWarmup} answers 200`);
  report({
    ...throughputFigures(ctx, 'chips_buy', 'buys_per_s', measured),
    ledger_rows_match: rowsMatch,
    members: count,
  });
}

export const chipsSuite: Suite = {
  name: 'chips',
  cases: ['chips_buy', 'chips_open'],
  async run(ctx, selected, report) {
    if (selected('chips_buy')) await runBuys(ctx, report);
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
