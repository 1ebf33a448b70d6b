/**
 * Items and logs of `make scale-seed`: 19 creator collections beside Alpha Ships and
 * their items (member1 owns `plan.member1.items`), the access log (sign-ins, login types 1-4) and the
 * admin log.
 */
import { activityStart } from './scale-seed.ledger.ts';
import { type Conn, S, type SeedContext, ts } from './scale-seed.sql.ts';
import { creatorNumbers } from './scale-seed.users.ts';

const COLLECTIONS = [
  'Relics of Orion',
  'Void Blades',
  'Nebula Pets',
  'Guild Banners',
  'Star Charts',
  'Drone Parts',
  'Crystal Cores',
  'Pilot Badges',
  'Ancient Maps',
  'Plasma Rifles',
  'Station Modules',
  'Comet Shards',
  'Hull Paints',
  'Warp Keys',
  'Trophy Cups',
  'Engine Kits',
  'Rune Stones',
  'Beacon Lights',
  'Moon Seeds',
];

/** The 19 creator collections (Alpha Ships, the sale's, makes 20). */
export async function insertCollections(conn: Conn, ctx: SeedContext): Promise<void> {
  const creators = creatorNumbers(ctx.n);
  const rows = COLLECTIONS.map((name, i) => {
    const k = creators[i] ?? 2;
    const at = `greatest(${S}.created(${k}) + interval '1 day', ${ts(ctx.t0 + (40 + 20 * i) * 86_400)})`;
    return `(${S}.oid('e0', ${at}, ${i + 1}), '${name}', 'Items of ${name}', ${S}.uid(${k}),
             ARRAY['https://apps.scale.example/${i + 1}/callback'], 'https://apps.scale.example/${i + 1}/cancel', ${at})`;
  });
  await conn.query(
    `INSERT INTO item_collections (id, name, description, creator_id, redirect_urls, cancel_url, created_at)
     VALUES ${rows.join(', ')}`,
  );
}

/** Items in the creator collections, `count` of them, the first `plan.member1.items` and more member1's. */
export async function insertItems(conn: Conn, ctx: SeedContext, count: number): Promise<void> {
  if (count <= 0) return;
  const m1 = Math.ceil(ctx.plan.member1.items * 1.1);
  await conn.query(
    `INSERT INTO items (id, collection_id, owner_id, name, description, metadata, variabledata, hiddendata, created_at)
     SELECT ${S}.oid('e1', t.at, g), c.id, ${S}.uid(CASE WHEN g % ${Math.max(1, Math.floor(count / m1))} = 0 THEN 1
                                                   ELSE ${S}.anyone(t.at, random()) END),
            split_part(c.name, ' ', 2) || ' #' || g, 'One of ' || c.name,
            jsonb_build_object('rarity', (ARRAY['Common', 'Common', 'Common', 'Uncommon', 'Uncommon', 'Rare', 'Epic'])[1 + floor(random() * 7)::int],
                               'level', 1 + floor(random() * random() * 60)::int),
            jsonb_build_object('xp', floor(random() * 10000)::int), jsonb_build_object('seed', md5(g::text)), t.at
       FROM generate_series(1, ${count}) g
       JOIN (SELECT row_number() OVER (ORDER BY id) - 1 AS rn, id, name, created_at FROM item_collections
              WHERE creator_id <> '${ctx.saleId}') c ON c.rn = g % 19
       CROSS JOIN LATERAL (SELECT c.created_at + random() * (${ts(ctx.now - 60)} - c.created_at) AS at WHERE g > 0) t`,
  );
}

/** The access log: sign-ins by email (1), wallet (2, the wallet-only members) and creator apps (3, 4). */
export async function insertAccessLogs(conn: Conn, ctx: SeedContext): Promise<void> {
  const a0 = activityStart(ctx);
  const count = ctx.plan.accessLogs;
  await conn.query(
    `INSERT INTO access_logs (id, created_at, user_id, address, login_type)
     SELECT ${S}.oid('f1', x.at, g), x.at, ${S}.uid(x.k), ${S}.ip(x.k * 7 + floor(x.u * 3)::bigint),
            CASE WHEN x.k % 20 = 0 THEN CASE WHEN x.u < 0.95 THEN 2 ELSE 4 END
                 WHEN x.u < 0.03 THEN 3 WHEN x.u < 0.08 THEN 2 ELSE 1 END
       FROM generate_series(1, ${count}) g
       CROSS JOIN LATERAL (SELECT to_timestamp(${a0} + (g - random()) / ${count} * ${ctx.now - 60 - a0}) AS at) t
       CROSS JOIN LATERAL (SELECT t.at, CASE WHEN g % 2500 = 0 THEN 1 ELSE ${S}.anyone(t.at, random()) END AS k,
                                  random() AS u) x`,
  );
}

/** The admin log: settlements, member administration, mints and burns, and the rarer actions. */
export async function insertAdminLogs(conn: Conn, ctx: SeedContext): Promise<void> {
  const a0 = activityStart(ctx);
  const count = ctx.plan.adminLogs;
  await conn.query(
    `INSERT INTO admin_logs (id, created_at, admin_id, affected_user_id, address, category, action)
     SELECT ${S}.oid('f2', x.at, g), x.at, '${ctx.adminId}',
            CASE WHEN x.cat IN (1, 4, 5, 30) THEN ${S}.uid(x.k) END, ${S}.ip(977), x.cat,
            CASE x.cat WHEN 30 THEN 'Approved deposit of ' || (1 + x.k % 900) || '.00 SN'
                       WHEN 1 THEN 'Set member' || x.k || ' ' || CASE WHEN x.k % 3 = 0 THEN 'inactive' ELSE 'active' END
                       WHEN 4 THEN 'Minted ' || (1 + x.k % 500) || '.00 SD to member' || x.k
                       WHEN 5 THEN 'Burned ' || (1 + x.k % 50) || '.00 SD from member' || x.k
                       WHEN 6 THEN 'Set the alert level to ' || (x.k % 5)
                       WHEN 3 THEN 'Modified currency SD'
                       WHEN 21 THEN 'Modified pair SN/SD'
                       ELSE 'Modified forge recipe' END
       FROM generate_series(1, ${count}) g
       CROSS JOIN LATERAL (SELECT to_timestamp(${a0} + (g - random()) / ${count} * ${ctx.now - 60 - a0}) AS at, random() AS u) t
       CROSS JOIN LATERAL (SELECT t.at, ${S}.anyone(t.at, random()) AS k,
                                  CASE WHEN t.u < 0.4 THEN 30 WHEN t.u < 0.6 THEN 1 WHEN t.u < 0.75 THEN 4 WHEN t.u < 0.8 THEN 5
                                       WHEN t.u < 0.85 THEN 6 WHEN t.u < 0.9 THEN 3 WHEN t.u < 0.95 THEN 21 ELSE 15 END AS cat) x`,
  );
}
