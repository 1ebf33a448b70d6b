/**
 * The forge of `make scale-seed`: 50 recipes and their processes over the history, with
 * the ledger rows the app writes (processes.service.ts): the input burned at the start (14, reference =
 * the process), the output minted on a claim or the input paid back on a cancel (13).
 */
import { activityStart } from './scale-seed.ledger.ts';
import { type Conn, ledgerInsert, S, type SeedContext, ts } from './scale-seed.sql.ts';

const NAMES = ['Refine', 'Smelt', 'Polish', 'Fuse', 'Distil', 'Temper', 'Infuse', 'Anneal', 'Condense', 'Weave'];
const THINGS = ['Ore', 'Gems', 'Stardust', 'Notes', 'Credits'];

/** Inserts the recipes (a few inactive, three deleted), created in the first months. */
export async function insertRecipes(conn: Conn, ctx: SeedContext): Promise<void> {
  const start = ctx.t0 + 80 * 86_400;
  const names = `'{${NAMES.join(',')}}'::text[]`;
  const things = `'{${THINGS.join(',')}}'::text[]`;
  await conn.query(
    `INSERT INTO forge_recipes (id, name, description, time_required, input_currency_id, input_amount,
                                output_currency_id, output_amount, active, created_at, deleted_at)
     SELECT ${S}.oid('c0', t.at, g), (${names})[1 + g % 10] || ' ' || (${things})[1 + g % 5] || ' ' || g,
            'Turns ' || t.inc || ' into something finer', t.secs, t.inc, t.ina, t.outc, t.outa, g % 12 <> 0, t.at,
            CASE WHEN g IN (7, 23, 41) THEN t.at + interval '200 days' END
       FROM generate_series(1, ${ctx.plan.recipes}) g
       CROSS JOIN LATERAL (
         SELECT ${ts(start)} + g * interval '9 hours' AS at,
                (ARRAY[6, 5, 1, 2, 3])[1 + g % 5] AS inc, (ARRAY[5, 1, 2, 6, 5])[1 + g % 5] AS outc,
                (1 + g % 7) * 2.5 AS ina, (1 + g % 4) * 1.25 AS outa,
                (ARRAY[60, 300, 900, 3600, 14400, 86400, 172800])[1 + g % 7] AS secs) t`,
  );
}

/**
 * Inserts the processes (member1 runs `plan.member1.processes` and more) and their ledger rows: most
 * claimed, some cancelled within 10 minutes, some still running or waiting to be claimed.
 */
export async function insertProcesses(conn: Conn, ctx: SeedContext): Promise<void> {
  const { plan } = ctx;
  const start = Math.max(activityStart(ctx), ctx.t0 + 90 * 86_400);
  const m1 = Math.ceil(plan.member1.processes * 1.1);
  await conn.query(
    `CREATE UNLOGGED TABLE ${S}.fp AS
     SELECT ${S}.oid('c1', x.at, x.g) AS id, x.*,
            CASE WHEN x.finish > ${ts(ctx.now)} OR x.u < 0.03 THEN 1 WHEN x.u < 0.08 THEN 4 ELSE 3 END AS state
       FROM (
         SELECT g, t.at, t.u, t.v, r.id AS recipe_id, r.name, r.input_currency_id AS inc, r.input_amount AS ina,
                r.output_currency_id AS outc, r.output_amount AS outa, r.time_required,
                t.at + r.time_required * interval '1 second' AS finish, w.k, w.qty
           FROM generate_series(1, ${plan.processes}) g
           CROSS JOIN LATERAL (SELECT to_timestamp(${start} + (g - random()) / ${plan.processes} * ${ctx.now - 120 - start}) AS at,
                                      random() AS u, random() AS v) t
           JOIN (SELECT row_number() OVER (ORDER BY id) - 1 AS rn, * FROM forge_recipes) r ON r.rn = (g * 7919) % ${plan.recipes}
           CROSS JOIN LATERAL (
             SELECT CASE WHEN g <= ${m1} THEN 1 ELSE ${S}.pick(r.input_currency_id, t.at, random(), random()) END AS k,
                    1 + floor(random() * random() * 10)::int AS qty) w) x`,
  );
  await conn.query(
    `INSERT INTO forge_processes (id, user_id, recipe_id, recipe_name, input_currency_id, input_amount,
                                  output_currency_id, output_amount, quantity, state, created_at, finish_date, ended_at)
     SELECT id, ${S}.uid(k), recipe_id, name, inc, ina, outc, outa, qty, state, at, finish,
            CASE state WHEN 3 THEN least(finish + v * interval '2 days', ${ts(ctx.now - 60)})
                       WHEN 4 THEN at + least(time_required - 1, 540) * v * interval '1 second' END
       FROM ${S}.fp ORDER BY at`,
  );
  await conn.query(
    ledgerInsert(`
     SELECT ${S}.oid(r.tag, r.at, f.g), r.at, r.category, r.c, r.amount, ${S}.uid(f.k), r.sender, r.recipient, false,
            'Forge: ' || p.recipe_name || ' x' || p.quantity || r.suffix, p.id
       FROM forge_processes p JOIN ${S}.fp f ON f.id = p.id
       CROSS JOIN LATERAL (VALUES
         ('30', p.created_at, 14, p.input_currency_id, p.input_amount * p.quantity, ${S}.uid(f.k), NULL, '', true),
         ('31', p.ended_at, 13, p.output_currency_id, p.output_amount * p.quantity, NULL, ${S}.uid(f.k), ' claimed', p.state = 3),
         ('31', p.ended_at, 13, p.input_currency_id, p.input_amount * p.quantity, NULL, ${S}.uid(f.k), ' cancelled', p.state = 4)
       ) r(tag, at, category, c, amount, sender, recipient, suffix, happens)
      WHERE r.happens`),
  );
}
