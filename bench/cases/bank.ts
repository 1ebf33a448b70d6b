/**
 * The admin and settlement money paths, through the HTTP API:
 * - `mint`: the admin mints 0.01 SN to bench members in turn (POST /api/bank/mint), one category 10 row each;
 * - `withdraw`: members withdraw 1.00 of a withdrawable, taxed currency made for the run (1% withdrawal
 *   tax to the admin, a hot row every request credits): one category 2 row, one category 4 row and one
 *   pending settlement each (POST /api/bank/withdraw).
 */
import type { RawRequest } from 'autocannon';
import { testCurrencyRequest } from '../lib/api.ts';
import { type BenchContext, measure, type Suite, throughputFigures } from '../lib/context.ts';
import { type BenchMember, registerFundedMembers } from '../lib/members.ts';
import { psql } from '../lib/postgres.ts';

/** Seeded untaxed Starnote (apps/server/src/seed.ts). */
const SN = 2;
/** SPEC §3 categories. */
const CATEGORY_WITHDRAWAL = 2;
const CATEGORY_MINT = 10;
/** Where every bench withdrawal is paid out (any 20-byte hex address). */
const WALLET = '0x00000000000000000000000000000000000be0c1';

/** Ledger rows of `category` in `currencyId`. */
async function rows(ctx: BenchContext, currencyId: number, category: number): Promise<number> {
  const n = await psql(
    ctx.pg,
    ctx.database,
    `SELECT count(*) FROM bank_transactions WHERE currency_id = ${currencyId} AND category = ${category}`,
  );
  return Number(n);
}

/** Pending withdrawals of `currencyId`. */
async function pendingWithdrawals(ctx: BenchContext, currencyId: number): Promise<number> {
  const n = await psql(
    ctx.pg,
    ctx.database,
    `SELECT count(*) FROM settlements WHERE currency_id = ${currencyId} AND kind = 'withdrawal'`,
  );
  return Number(n);
}

/** Every 200 answer wrote one row; requests cut off in flight may have written some more. */
function matches(written: number, measured: { okWithWarmup: number; cutOff: number }): boolean {
  return written >= measured.okWithWarmup && written <= measured.okWithWarmup + measured.cutOff;
}

/** A JSON POST as `token`. */
function post(path: string, token: string, body: unknown): RawRequest {
  return {
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  };
}

export const bankSuite: Suite = {
  name: 'bank',
  cases: ['mint', 'withdraw'],
  async run(ctx, selected, report) {
    const count = Number(process.env.BENCH_MEMBERS || 200);
    if (selected('mint')) {
      const members = await registerFundedMembers(ctx, count, 'minted', [], '0');
      ctx.log('bank: mint...');
      const before = await rows(ctx, SN, CATEGORY_MINT);
      const measured = await measure(ctx, (n) =>
        post('/api/bank/mint', ctx.adminToken, {
          recipientNickName: (members[n % members.length] as BenchMember).nickname,
          currencyId: SN,
          amount: '0.01',
          note: 'bench mint',
        }),
      );
      const written = (await rows(ctx, SN, CATEGORY_MINT)) - before;
      const rowsMatch = matches(written, measured);
      if (!rowsMatch) ctx.log(`bank: ${written} mint rows for ${measured.okWithWarmup} answers 200`);
      report({
        ...throughputFigures(ctx, 'mint', 'mints_per_s', measured),
        ledger_rows_match: rowsMatch,
        members: count,
      });
    }
    if (selected('withdraw')) {
      const { currency } = await ctx.api.post<{ currency: { currencyId: number } }>(
        '/api/bank/createCurrency',
        testCurrencyRequest(`BW${ctx.tag}`, 2, 'Bench withdrawals', {
          canDeposit: true,
          canWithdraw: true,
          withdrawTax: '0.01',
          taxCollector: ctx.adminNickname,
        }),
        ctx.adminToken,
      );
      const cid = currency.currencyId;
      // Enough for every request to succeed: 1.00 each, well above the rate any member reaches.
      const members = await registerFundedMembers(ctx, count, 'withdrawer', [cid], '100000');
      ctx.log('bank: withdraw...');
      const before = await rows(ctx, cid, CATEGORY_WITHDRAWAL);
      const settlementsBefore = await pendingWithdrawals(ctx, cid);
      const measured = await measure(ctx, (n) =>
        post('/api/bank/withdraw', (members[n % members.length] as BenchMember).token, {
          currencyId: cid,
          amount: '1.00',
          walletAddress: WALLET,
        }),
      );
      const written = (await rows(ctx, cid, CATEGORY_WITHDRAWAL)) - before;
      const settlements = (await pendingWithdrawals(ctx, cid)) - settlementsBefore;
      const rowsMatch = matches(written, measured) && settlements === written;
      if (!rowsMatch) {
        ctx.log(
          `bank: ${written} withdrawal rows, ${settlements} settlements for ${measured.okWithWarmup} answers 200`,
        );
      }
      report({
        ...throughputFigures(ctx, 'withdraw', 'withdrawals_per_s', measured),
        ledger_rows_match: rowsMatch,
        members: count,
      });
    }
  },
};
