/**
 * The ledger benchmark (DESIGN §9): member-to-member transfers through the HTTP API,
 * many distinct senders, once in an untaxed currency (SN) and once in a taxed one (SD: 1% to the
 * collector, whose balance row every transfer then credits: a hot row), and once more untaxed with each
 * sender's API key (`x-api-key`, scope transfer) in place of its session token (DESIGN §11.2: the key check
 * must cost no more than the session check).
 */
import type { RawRequest } from 'autocannon';
import { mapLimit } from '../lib/api.ts';
import { type BenchContext, measure, type Suite, throughputFigures } from '../lib/context.ts';
import { type BenchMember, registerFundedMembers } from '../lib/members.ts';
import { psql } from '../lib/postgres.ts';

/** Seeded currencies (apps/server/src/seed.ts). */
const SD = 1; // 1% transfer tax to the admin
const SN = 2; // untaxed

/** SPEC §3 category of a member-to-member transfer row. */
const CATEGORY_TRANSFER = 3;

type Member = BenchMember & { apiKey?: string };

/** Registers `count` members and funds them with 1000 SD and 1000 SN each. */
async function setUpMembers(ctx: BenchContext, count: number): Promise<Member[]> {
  const started = Date.now();
  const members = await registerFundedMembers(ctx, count, 'bench', [SD, SN], '1000');
  ctx.log(`ledger: ${count} members registered and funded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return members;
}

/**
 * Request `n` of a transfer run: sender n mod N, recipient about half the ring away (shifted every
 * round), so requests in flight together touch distinct balance rows, as independent members would.
 */
function transferRequest(
  members: readonly Member[],
  currencyId: number,
  amount: string,
  viaKey: boolean,
): (n: number) => RawRequest {
  const count = members.length;
  const half = Math.floor(count / 2);
  const spread = Math.max(1, Math.floor(count / 4));
  return (n) => {
    const s = n % count;
    const r = (s + half + (Math.floor(n / count) % spread)) % count;
    const sender = members[s] as Member;
    const recipient = members[r] as Member;
    return {
      method: 'POST',
      path: '/api/bank/p2pTransfer',
      headers: {
        'content-type': 'application/json',
        ...(viaKey ? { 'x-api-key': sender.apiKey ?? '' } : { authorization: `Bearer ${sender.token}` }),
      },
      body: JSON.stringify({ recipientNickName: recipient.nickname, currencyId, amount, note: '' }),
    };
  };
}

const CASES = [
  { name: 'transfer_untaxed', currencyId: SN, amount: '0.01', viaKey: false },
  // 1% of 1.00 is 0.01, SD's smallest unit: every transfer pays a tax to the collector.
  { name: 'transfer_taxed', currencyId: SD, amount: '1.00', viaKey: false },
  { name: 'transfer_untaxed_apikey', currencyId: SN, amount: '0.01', viaKey: true },
];

/** Gives each member an API key with the transfer scope (`POST /api/user/apiKeys/create`). */
async function giveApiKeys(ctx: BenchContext, members: Member[]): Promise<void> {
  await mapLimit(members, 16, async (m) => {
    const res = await ctx.api.post<{ secret: string }>(
      '/api/user/apiKeys/create',
      { name: 'bench', scopes: ['transfer'] },
      m.token,
    );
    m.apiKey = res.secret;
  });
}

/** Transfer rows of `currencyId` in the server's ledger. */
async function transferRows(ctx: BenchContext, currencyId: number): Promise<number> {
  const n = await psql(
    ctx.pg,
    ctx.database,
    `SELECT count(*) FROM bank_transactions WHERE currency_id = ${currencyId} AND category = ${CATEGORY_TRANSFER}`,
  );
  return Number(n);
}

export const ledgerSuite: Suite = {
  name: 'ledger',
  cases: CASES.map((c) => c.name),
  async run(ctx, selected, report) {
    const members = await setUpMembers(ctx, Number(process.env.BENCH_MEMBERS || 200));
    for (const c of CASES) {
      if (!selected(c.name)) continue;
      ctx.log(`ledger: ${c.name}...`);
      if (c.viaKey && members[0]?.apiKey === undefined) await giveApiKeys(ctx, members);
      const before = await transferRows(ctx, c.currencyId);
      const measured = await measure(ctx, transferRequest(members, c.currencyId, c.amount, c.viaKey));
      const written = (await transferRows(ctx, c.currencyId)) - before;
      // Every 200 answer is one transfer row; only requests cut off in flight may add rows unseen.
      const rowsMatch = written >= measured.okWithWarmup && written <= measured.okWithWarmup + measured.cutOff;
      if (!rowsMatch) ctx.log(`ledger: ${written} transfer rows for ${measured.okWithWarmup} answers 200`);
      report({
        ...throughputFigures(ctx, c.name, 'transfers_per_s', measured),
        ledger_rows_match: rowsMatch,
        members: members.length,
      });
    }
  },
};
