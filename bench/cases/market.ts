/**
 * The marketplace benchmark (DESIGN §11.5): `market_buy`, one open listing bought a request
 * (POST /api/market/buy {listingId} with an Idempotency-Key): the listing and its item locked, the price
 * moved (category 50 to the seller, category 51 royalty to the collection's creator, the admin, whose
 * balance row every purchase credits), the item moved to the buyer and the listing closed, in one
 * transaction. Every request buys a different listing. Setup: the admin's collection (5% royalty), 50
 * sellers holding its items, each listed for 1.00 of a bench currency (items and listings written in one
 * SQL statement each, as the scale seed writes rows), and buyers funded for their share of the run.
 */
import { testCurrencyRequest } from '../lib/api.ts';
import { type BenchContext, measure, type Suite, throughputFigures } from '../lib/context.ts';
import { type BenchMember, registerFundedMembers } from '../lib/members.ts';
import { psql } from '../lib/postgres.ts';

/** SPEC §3 / DESIGN §11.5: a purchase's row to the seller. */
const CATEGORY_PURCHASE = 50;
const SELLERS = 50;
const PRICE = 1;
/** Purchases per second the listings are made for, with room to spare (a listing bought twice answers 409). */
const RATE_CEILING = 3000;

/** Sold listings of the run's collection, and purchase rows in its currency. */
async function sold(
  ctx: BenchContext,
  collectionId: string,
  currencyId: number,
): Promise<{ sold: number; rows: number }> {
  const out = await psql(
    ctx.pg,
    ctx.database,
    `SELECT (SELECT count(*) FROM market_listings WHERE collection_id = '${collectionId}' AND state = 'sold')
       || '|' || (SELECT count(*) FROM bank_transactions WHERE currency_id = ${currencyId} AND category = ${CATEGORY_PURCHASE})`,
  );
  const [listings = '0', rows = '0'] = out.split('|');
  return { sold: Number(listings), rows: Number(rows) };
}

export const marketSuite: Suite = {
  name: 'market',
  cases: ['market_buy'],
  async run(ctx, selected, report) {
    if (!selected('market_buy')) return;
    const started = Date.now();
    const { durationS, warmupS } = ctx.settings;
    const listingsWanted = RATE_CEILING * (durationS + warmupS);
    const { currency } = await ctx.api.post<{ currency: { currencyId: number } }>(
      '/api/bank/createCurrency',
      testCurrencyRequest(`BM${ctx.tag}`, 2, 'Bench market'),
      ctx.adminToken,
    );
    const { collection } = await ctx.api.post<{ collection: { _id: string } }>(
      '/api/inventory/createCollection',
      { name: `Bench Market ${ctx.tag}`.trim(), description: 'Items bought by the market bench' },
      ctx.adminToken,
    );
    await ctx.api.post(
      '/api/inventory/modifyCollection',
      { collectionId: collection._id, royalty: '0.05' },
      ctx.adminToken,
    );
    await registerFundedMembers(ctx, SELLERS, 'mseller', [], '0');
    const count = Number(process.env.BENCH_MEMBERS || 200);
    const each = Math.ceil(listingsWanted / count) + 1;
    const buyers = await registerFundedMembers(ctx, count, 'mbuyer', [currency.currencyId], String(each * PRICE));
    // Item g belongs to seller g % SELLERS; its listing names it (ids from the run's tag and the number).
    await psql(
      ctx.pg,
      ctx.database,
      `WITH s AS (SELECT id, row_number() OVER (ORDER BY nickname) - 1 AS k FROM users
                   WHERE nickname LIKE 'mseller${ctx.tag}%')
       INSERT INTO items (id, collection_id, owner_id, name)
       SELECT substr(md5('${ctx.tag}item' || g), 1, 24), '${collection._id}', s.id, 'Bench Ship ' || (g % 97)
         FROM generate_series(0, ${listingsWanted - 1}) g JOIN s ON s.k = g % ${SELLERS}`,
    );
    await psql(
      ctx.pg,
      ctx.database,
      `INSERT INTO market_listings (id, item_id, item_name, collection_id, seller_id, currency_id, price, royalty)
       SELECT substr(md5('${ctx.tag}listing' || i.id), 1, 24), i.id, i.name, i.collection_id, i.owner_id,
              ${currency.currencyId}, ${PRICE}, 0.05
         FROM items i WHERE i.collection_id = '${collection._id}'`,
    );
    const ids = (
      await psql(
        ctx.pg,
        ctx.database,
        `SELECT string_agg(id, ',' ORDER BY item_id) FROM market_listings WHERE collection_id = '${collection._id}'`,
      )
    ).split(',');
    ctx.log(
      `market: ${ids.length} listings and ${count} buyers ready in ${((Date.now() - started) / 1000).toFixed(1)} s; market_buy...`,
    );
    const before = await sold(ctx, collection._id, currency.currencyId);
    const measured = await measure(ctx, (n) => ({
      method: 'POST',
      path: '/api/market/buy',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${(buyers[n % buyers.length] as BenchMember).token}`,
        'idempotency-key': `bench-market-${ctx.tag}-${n}`,
      },
      body: JSON.stringify({ listingId: ids[n % ids.length] }),
    }));
    const after = await sold(ctx, collection._id, currency.currencyId);
    const bought = after.sold - before.sold;
    // Every 200 answer sold exactly one listing with one purchase row; only requests cut off in flight
    // may add sales unseen.
    const rowsMatch =
      bought >= measured.okWithWarmup &&
      bought <= measured.okWithWarmup + measured.cutOff &&
      after.rows - before.rows === bought;
    if (!rowsMatch)
      ctx.log(`market: ${bought} sales, ${after.rows - before.rows} rows for ${measured.okWithWarmup} answers 200`);
    if (measured.okWithWarmup + measured.cutOff >= ids.length)
      ctx.log('market: the listings ran out: raise RATE_CEILING');
    report({
      ...throughputFigures(ctx, 'market_buy', 'buys_per_s', measured),
      ledger_rows_match: rowsMatch,
      listings: ids.length,
      members: count,
    });
  },
};
