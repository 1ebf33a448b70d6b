/**
 * The market's lists past their counting bounds (DESIGN §11.5, decision 0005). On a database of its own
 * (listings bulk-inserted by SQL, the kept counts following them by their triggers): a name search counts
 * up to `NAME_COUNT_CAP` past the page and says so (`totalCapped`), pages still follow one another in
 * order, a narrower name and every other filter answer exact totals, and a member's own list is exact
 * below `COUNT_CAP`.
 */
import type { ListingsResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { NAME_COUNT_CAP } from '../src/modules/market/market.queries.ts';
import { call, makeAppOnOwnDatabase, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp({}, { build: () => makeAppOnOwnDatabase('marketpaging') });

const rowsOf = async <T>(q: ReturnType<typeof sql>) => (await t.built.database.db.execute(q)).rows as T[];

describe('market listings past the name search bound', () => {
  const extra = 120;

  it('counts a name search to its bound, says so, pages on in order, and counts the rest exactly', async () => {
    const seller = await registerMember(t.app, 'lister');
    const prefix = `bulk${Date.now().toString(36)}`;
    const [collection] = await rowsOf<{ id: string }>(sql`SELECT id FROM item_collections ORDER BY id LIMIT 1`);
    const [currency] = await rowsOf<{ currency_id: number }>(
      sql`SELECT currency_id FROM currencies ORDER BY currency_id LIMIT 1`,
    );
    if (!collection || !currency) throw new Error('the app seed holds no collection or currency');
    // NAME_COUNT_CAP + extra open listings named "<prefix> <i>", a second apart, newest last.
    await t.built.database.db.execute(sql`
      INSERT INTO market_listings (id, item_id, item_name, collection_id, seller_id, currency_id, price, created_at)
      SELECT 'c' || lpad(to_hex(i), 23, '0'), 'd' || lpad(to_hex(i), 23, '0'), ${prefix} || ' ' || i,
             ${collection.id}, ${seller.id}, ${currency.currency_id}, 1 + i, now() - make_interval(secs => 5000 - i)
      FROM generate_series(1, ${NAME_COUNT_CAP + extra}) i`);

    const browse = async (body: Record<string, unknown>) => {
      const res = await call(t.app, undefined, 'POST', '/api/market/listings', body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<ListingsResponse>();
    };
    const newestIds = async (where: ReturnType<typeof sql>, limit: number, offset: number) =>
      (
        await rowsOf<{ id: string }>(
          sql`SELECT id FROM market_listings WHERE state = 'open' AND ${where}
               ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`,
        )
      ).map((r) => r.id);
    const named = sql`item_name LIKE ${`${prefix} %`}`;

    const first = await browse({ paging: { limit: 50, page: 1 }, name: prefix.toUpperCase() });
    expect([first.total, first.totalCapped]).toEqual([NAME_COUNT_CAP, true]);
    expect(first.listings.map((l) => l._id)).toEqual(await newestIds(named, 50, 0));
    const second = await browse({ paging: { limit: 50, page: 2 }, name: prefix });
    expect([second.total, second.totalCapped]).toEqual([50 + NAME_COUNT_CAP, true]);
    expect(second.listings.map((l) => l._id)).toEqual(await newestIds(named, 50, 50));
    // Past the first bound the count moves with the page: the last page answers the exact total.
    const lastPage = Math.ceil((NAME_COUNT_CAP + extra) / 50);
    const last = await browse({ paging: { limit: 50, page: lastPage }, name: prefix });
    expect([last.total, last.totalCapped]).toEqual([NAME_COUNT_CAP + extra, false]);
    expect(last.listings.map((l) => l._id)).toEqual(await newestIds(named, 50, (lastPage - 1) * 50));

    // A narrower name is counted exactly: "<prefix> 1", "<prefix> 10" to "19", "100" to "199", "1000" on.
    const narrow = await browse({ paging: { limit: 10, page: 1 }, name: `${prefix} 1` });
    const [matching] = await rowsOf<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM market_listings WHERE state = 'open' AND item_name LIKE ${`${prefix} 1%`}`,
    );
    expect([narrow.total, narrow.totalCapped]).toEqual([matching?.n, false]);
    expect(narrow.total).toBeGreaterThan(100);

    // Every other filter reads the kept counts: exact, never capped.
    const inCollection = await browse({ paging: { limit: 10, page: 1 }, itemCollectionId: collection.id });
    expect([inCollection.total, inCollection.totalCapped]).toEqual([NAME_COUNT_CAP + extra, false]);

    // The seller's own list counts to COUNT_CAP, far above this.
    const mine = await call(t.app, seller.token, 'POST', '/api/market/myListings', { paging: { limit: 10, page: 1 } });
    expect(mine.statusCode, mine.body).toBe(200);
    expect([mine.json<ListingsResponse>().total, mine.json<ListingsResponse>().totalCapped]).toEqual([
      NAME_COUNT_CAP + extra,
      false,
    ]);
  });
});
