/**
 * The Credits store and the synth chips of `make scale-seed`, with the rows the app
 * writes (checkout.events.ts, checkout.grants.ts, chips.service.ts):
 * - packages; checkouts in every state with their provider events; a completed one mints its Credits
 *   (12) and grants its items (chips moved from the sale, 3; ships naming the checkout); a refunded one
 *   burns the Credits back (11) and is Resolved;
 * - chip purchases (Credits to the sale and chips from it, both 3) and most chips opened (33) into
 *   five ships each, drawn from the published drop table.
 */
import { CHIP_PRICE_CREDITS, DROP_TABLE, SHIPS_PER_CHIP, shipImageUrl } from '@starlight/shared';
import { activityStart } from './scale-seed.ledger.ts';
import { type Conn, ledgerInsert, lit, S, type SeedContext, ts } from './scale-seed.sql.ts';

interface PackageSpec {
  name: string;
  cost: string;
  credits: number;
  chips: number;
  ships: number;
  weight: number;
  deleted?: boolean;
  inactive?: boolean;
}

const PACKAGES: PackageSpec[] = [
  { name: 'Starter', cost: '0.99', credits: 100, chips: 0, ships: 0, weight: 30 },
  { name: 'Pilot', cost: '4.99', credits: 550, chips: 0, ships: 0, weight: 25 },
  { name: 'Captain', cost: '9.99', credits: 1200, chips: 1, ships: 0, weight: 15 },
  { name: 'Commander', cost: '19.99', credits: 2500, chips: 0, ships: 3, weight: 12 },
  { name: 'Admiral', cost: '49.99', credits: 6500, chips: 2, ships: 5, weight: 6 },
  { name: 'Fleet', cost: '99.99', credits: 14000, chips: 0, ships: 0, weight: 4 },
  { name: 'Legacy', cost: '2.99', credits: 300, chips: 0, ships: 0, weight: 5, deleted: true },
  { name: 'Festival', cost: '14.99', credits: 2000, chips: 0, ships: 0, weight: 3, inactive: true },
];

/** The most chips the checkouts and purchases may take from the sale (for its supply). */
export function chipsNeeded(ctx: SeedContext): number {
  return ctx.plan.chipBuys * 3 + ctx.plan.checkouts * 2;
}

/** The drop table as SQL rows (lo, hi, rarity, ship): a ship's share of [0, 1). */
function dropRows(): string {
  const total = DROP_TABLE.reduce((s, r) => s + r.oddsBp, 0);
  const rows: string[] = [];
  let lo = 0;
  const last = DROP_TABLE.reduce((n, r) => n + r.ships.length, 0);
  for (const r of DROP_TABLE) {
    for (const ship of r.ships) {
      // The last ship's share runs past 1, so rounding never leaves a draw without a ship.
      const hi = rows.length === last - 1 ? 2 : lo + r.oddsBp / r.ships.length / total;
      rows.push(`(${lo}, ${hi}, ${lit(r.rarity)}, ${lit(ship)}, ${lit(shipImageUrl(ship))})`);
      lo = hi;
    }
  }
  return rows.join(', ');
}

/** Ships for the staged (owner k, count, time, checkout) rows of `source`, as `createShips` makes them. */
function shipsFrom(ctx: SeedContext, source: string, tag: string): string {
  return `INSERT INTO items (id, collection_id, owner_id, name, description, img_url, metadata, variabledata, hiddendata,
                             checkout_id, created_at)
     SELECT ${S}.oid('${tag}', s.at, s.n * 16 + i), '${ctx.shipsCollectionId}', ${S}.uid(s.k), 'Alpha ' || d.ship,
            'A ' || lower(d.rarity) || ' ' || lower(d.ship) || ' from an Alpha synth chip', d.img,
            jsonb_build_object('rarity', d.rarity, 'class', d.ship), '{}', '{}', s.checkout_id, s.at
       FROM (${source}) s CROSS JOIN LATERAL generate_series(1, s.ships) i
       CROSS JOIN LATERAL (SELECT random() AS u WHERE i > 0) u
       JOIN (VALUES ${dropRows()}) d(lo, hi, rarity, ship, img) ON u.u >= d.lo AND u.u < d.hi`;
}

/** Inserts the packages (published; one deleted, one inactive). */
export async function insertPackages(conn: Conn, ctx: SeedContext): Promise<void> {
  const at = ctx.t0 + 20 * 86_400;
  const rows = PACKAGES.map((p, i) => {
    const items = [
      ...(p.chips ? [{ type: 1, amount: p.chips }] : []),
      ...(p.ships ? [{ type: 2, amount: p.ships }] : []),
    ];
    const created = ts(at + i * 86_400);
    return `(${S}.oid('d0', ${created}, ${i + 1}), ${lit(p.name)}, ${lit(`${p.credits} Credits`)}, ${p.cost}, ${p.credits},
             ${lit(JSON.stringify(items))}::jsonb, ${!p.inactive}, true, ${created},
             ${p.deleted ? `${created} + interval '300 days'` : 'NULL'}, ${i + 1}, ${p.weight}, ${p.chips}, ${p.ships})`;
  });
  await conn.query(
    `CREATE UNLOGGED TABLE ${S}.pk AS SELECT * FROM (VALUES ${rows.join(', ')})
       v(id, name, description, cost, amount, items, active, published, created_at, deleted_at, idx, weight, chips, ships)`,
  );
  await conn.query(
    `INSERT INTO checkout_packages (id, name, description, cost, amount, items, active, published, created_at, deleted_at)
     SELECT id, name, description, cost, amount, items, active, published, created_at, deleted_at FROM ${S}.pk`,
  );
}

/** Checkouts in every state, their events, their ledger rows and their ships. */
export async function insertCheckouts(conn: Conn, ctx: SeedContext): Promise<void> {
  const { plan } = ctx;
  const start = Math.max(activityStart(ctx), ctx.t0 + 30 * 86_400);
  const m1 = Math.ceil(plan.member1.checkouts * 1.1);
  const weights = PACKAGES.map((p) => p.weight);
  const total = weights.reduce((a, b) => a + b, 0);
  let acc = 0;
  const pickPackage = weights
    .map((w, i) => {
      acc += w;
      return `WHEN x.pu < ${acc / total} THEN ${i + 1}`;
    })
    .join(' ');
  await conn.query(
    `CREATE UNLOGGED TABLE ${S}.ck AS
     SELECT ${S}.oid('d1', x.at, x.g) AS id, x.*, p.id AS package_id, p.name AS package_name, p.cost, p.amount,
            p.chips, p.ships,
            CASE WHEN x.su < 0.70 THEN 9 WHEN x.su < 0.72 THEN CASE WHEN p.chips + p.ships = 0 THEN 6 ELSE 9 END
                 WHEN x.su < 0.87 THEN 8 WHEN x.su < 0.95 THEN 1 WHEN x.su < 0.98 THEN 3 ELSE 5 END AS state,
            x.at + (2 + floor(random() * 8)) * interval '1 minute' AS paid_at,
            least(x.at + interval '3 days', ${ts(ctx.now - 60)}) AS refund_at
       FROM (SELECT g, t.*, CASE WHEN g <= ${m1} THEN 1 ELSE ${S}.anyone(t.at, random()) END AS k,
                    CASE WHEN random() < 0.8 THEN 2 ELSE 1 END AS provider, random() AS su, random() AS pu,
                    floor(random() * 4294967295)::bigint AS ipn
               FROM generate_series(1, ${plan.checkouts}) g
               CROSS JOIN LATERAL (SELECT to_timestamp(${start} + (g - random()) / ${plan.checkouts} * ${ctx.now - 900 - start}) AS at) t) x
       JOIN ${S}.pk p ON p.idx = CASE ${pickPackage} ELSE 1 END`,
  );
  await conn.query(
    `INSERT INTO checkout_transactions (id, user_id, package_id, package_name, provider_id, ref_id, payment_ref, ip, state,
                                        cost, amount, credited, taken_back, owed, chips_granted, chips_owed,
                                        items_taken_back, created_at, updated_at)
     SELECT id, ${S}.uid(k), package_id, package_name, provider, 'sbx_' || id, '', ${S}.ip(ipn), state, cost, amount,
            CASE WHEN state IN (6, 9) THEN amount ELSE 0 END, CASE WHEN state = 6 THEN amount ELSE 0 END, 0,
            CASE WHEN state = 9 THEN chips ELSE 0 END, 0, false, at,
            CASE WHEN state = 6 THEN refund_at WHEN state = 1 THEN at ELSE paid_at END
       FROM ${S}.ck ORDER BY at`,
  );
  const event = (type: string, outcome: string, when: string, n: number, cond: string) =>
    `SELECT ${S}.oid('d2', ${when}, c.g * 4 + ${n}), c.id, c.provider, 'evt_sbx_' || c.id || '_${n}', '${type}', '${outcome}',
            jsonb_build_object('id', 'evt_sbx_' || c.id || '_${n}', 'type', '${type}', 'checkoutId', c.id,
                               'amountCents', (c.cost * 100)::bigint::text, 'currency', 'usd', 'packageId', c.package_id),
            ${when}
       FROM ${S}.ck c WHERE ${cond}`;
  await conn.query(
    `INSERT INTO checkout_events (id, checkout_id, provider_id, event_id, event_type, outcome, payload, received_at)
     ${event('sandbox.pay', 'completed', 'c.paid_at', 1, 'c.state IN (6, 9)')}
     UNION ALL ${event('sandbox.refund', 'resolved', 'c.refund_at', 2, 'c.state = 6')}
     UNION ALL ${event('sandbox.fail', 'cancelled', 'c.paid_at', 1, 'c.state = 8')}
     UNION ALL ${event('checkout.session.completed', 'pending', 'c.paid_at', 1, 'c.state = 3')}
     UNION ALL ${event('sandbox.delay', 'delayed', 'c.paid_at', 1, 'c.state = 5')}`,
  );
  await conn.query(
    ledgerInsert(`
     SELECT ${S}.oid(r.tag, r.at, c.g), r.at, r.category, r.c, r.amount, NULL, r.sender, r.recipient, false, r.note, c.id
       FROM ${S}.ck c CROSS JOIN LATERAL (VALUES
         ('40', c.paid_at, 12, 3, c.amount, NULL, ${S}.uid(c.k), 'Checkout: ' || c.package_name, c.state IN (6, 9)),
         ('41', c.refund_at, 11, 3, c.amount, ${S}.uid(c.k), NULL, 'Checkout refunded: ' || c.package_name,
                c.state = 6),
         ('42', c.paid_at, 3, ${ctx.chipCurrencyId}, c.chips::numeric, '${ctx.saleId}', ${S}.uid(c.k),
                'Checkout items: Alpha synth chips x' || c.chips, c.state = 9 AND c.chips > 0)
       ) r(tag, at, category, c, amount, sender, recipient, note, happens)
      WHERE r.happens`),
  );
  await conn.query(
    shipsFrom(
      ctx,
      `SELECT g AS n, k, ships, paid_at AS at, id AS checkout_id FROM ${S}.ck WHERE state = 9 AND ships > 0`,
      'e2',
    ),
  );
}

/** Chip purchases from the sale and most of them opened into ships. */
export async function insertChips(conn: Conn, ctx: SeedContext): Promise<void> {
  const { plan } = ctx;
  const start = Math.max(activityStart(ctx), ctx.t0 + 120 * 86_400);
  await conn.query(
    `CREATE UNLOGGED TABLE ${S}.chip AS
     SELECT g, t.at, ${S}.pick(3, t.at, random(), random()) AS k, 1 + floor(random() * random() * 3)::int AS chips,
            CASE WHEN random() < 0.8 THEN least(t.at + random() * interval '3 days', ${ts(ctx.now - 60)}) END AS opened_at
       FROM generate_series(1, ${plan.chipBuys}) g
       CROSS JOIN LATERAL (SELECT to_timestamp(${start} + (g - random()) / ${plan.chipBuys} * ${ctx.now - 900 - start}) AS at) t`,
  );
  await conn.query(
    ledgerInsert(`
     SELECT ${S}.oid(r.tag, r.at, c.g), r.at, r.category, r.c, r.amount, ${S}.uid(c.k), r.sender, r.recipient, false, r.note, NULL
       FROM ${S}.chip c CROSS JOIN LATERAL (VALUES
         ('50', c.at, 3, 3, c.chips * ${CHIP_PRICE_CREDITS}::numeric, ${S}.uid(c.k), '${ctx.saleId}', 'Synth chips x' || c.chips, true),
         ('51', c.at, 3, ${ctx.chipCurrencyId}, c.chips::numeric, '${ctx.saleId}', ${S}.uid(c.k), 'Synth chips x' || c.chips, true),
         ('52', c.opened_at, 33, ${ctx.chipCurrencyId}, c.chips::numeric, ${S}.uid(c.k), NULL,
                'Opened ' || c.chips || ' Alpha synth chip(s)', c.opened_at IS NOT NULL)
       ) r(tag, at, category, c, amount, sender, recipient, note, happens)
      WHERE r.happens`),
  );
  await conn.query(
    shipsFrom(
      ctx,
      `SELECT g AS n, k, chips * ${SHIPS_PER_CHIP} AS ships, opened_at AS at, NULL::text AS checkout_id
         FROM ${S}.chip WHERE opened_at IS NOT NULL`,
      'e3',
    ),
  );
}
