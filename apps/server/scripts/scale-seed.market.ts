/**
 * The marketplace of `make scale-seed` (DESIGN §11.5): a royalty on most creator collections, and open
 * listings of items by their owners (`plan.listings`, member1 among the sellers with
 * `plan.member1.listings`), priced in SD or GEM. Only open listings: a sold one would need its ledger rows
 * and the item's move, which the seed's ledger does not plan.
 */
import { GEM } from './scale-seed.ledger.ts';
import { type Conn, S, type SeedContext } from './scale-seed.sql.ts';

/** The collections' royalties, then the listings. */
export async function insertMarket(conn: Conn, ctx: SeedContext): Promise<void> {
  await setRoyalties(conn);
  await insertListings(conn, ctx);
}

/** Gives the creator collections royalties of 0 to 10% (one in five has none). */
async function setRoyalties(conn: Conn): Promise<void> {
  await conn.query(
    `UPDATE item_collections c SET royalty = r.royalty
       FROM (SELECT id, ((row_number() OVER (ORDER BY id)) % 5) * 0.025 AS royalty FROM item_collections) r
      WHERE r.id = c.id`,
  );
}

/** Lists `plan.listings` items, member1's first `plan.member1.listings` among them, one open listing an item. */
async function insertListings(conn: Conn, ctx: SeedContext): Promise<void> {
  const { listings } = ctx.plan;
  const mine = ctx.plan.member1.listings;
  if (listings <= 0) return;
  await conn.query(
    `INSERT INTO market_listings (id, item_id, item_name, item_img_url, collection_id, seller_id, currency_id, price,
                                  royalty, state, created_at)
     SELECT ${S}.oid('e5', x.at, x.n), i.id, i.name, i.img_url, i.collection_id, i.owner_id,
            CASE WHEN x.n % 10 < 7 THEN 1 ELSE ${GEM} END, round((1 + random() * random() * 5000)::numeric, 2),
            c.royalty, 'open', x.at
       FROM (SELECT i.*, row_number() OVER () AS n
               FROM ((SELECT * FROM items WHERE owner_id = ${S}.uid(1) ORDER BY id LIMIT ${mine})
                     UNION ALL
                     -- Any other members' items, in an order of their own (a hash of the id), never a system account's.
                     (SELECT i.* FROM items i JOIN users u ON u.id = i.owner_id AND NOT u.is_system
                       WHERE i.owner_id <> ${S}.uid(1) ORDER BY md5(i.id) LIMIT ${Math.max(0, listings - mine)})) i) i
       JOIN item_collections c ON c.id = i.collection_id
       CROSS JOIN LATERAL (SELECT i.n, greatest(i.created_at, to_timestamp(${ctx.now}) - random() * interval '60 days') AS at) x`,
  );
}
