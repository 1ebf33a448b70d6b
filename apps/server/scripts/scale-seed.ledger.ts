/**
 * The bank of `make scale-seed`: two more currencies, the plain ledger parts (transfers
 * with their tax, mints, burns, distributions, deposits and withdrawals with their settlements), and at
 * the end the members' funding and balances, derived from the rows so that everything reconciles:
 * - only members funded in a currency (`FUNDED`) ever pay in it; each funded member gets one early
 *   issuing row (a deposit of SN, a mint of the others) of what their payments need beyond what they
 *   received, plus a heavy-tailed holding (a few whales, a long tail);
 * - every balance is then exactly its ledger rows (credits minus debits, escrow rows as the app writes
 *   them), so the audit's conservation holds and no balance is negative.
 */
import { type Conn, FUNDED, ledgerInsert, S, type SeedContext, SPAN_SECONDS, ts } from './scale-seed.sql.ts';

/** Currency ids the seed adds beside the app's SD (1), SN (2), CR (3) and the chips. */
export const GEM = 5;
export const ORE = 6;

/** When activity starts: once 40 members have joined (so `pick` always finds a member who had). */
export function activityStart(ctx: SeedContext): number {
  return Math.ceil(ctx.t0 + SPAN_SECONDS * ((40 - 1) / ctx.n) ** 0.6) + 60;
}

/**
 * Adds GEM and ORE (transferable, mintable, burnable) and opens SN to deposits and withdrawals (0.5%
 * withdrawal tax), as an operator would; the currencies date from the community's start.
 */
export async function setUpCurrencies(conn: Conn, ctx: SeedContext): Promise<void> {
  const [row] = await conn.query<{ max: number }>('SELECT max(currency_id)::int AS max FROM currencies');
  if (row?.max !== ctx.chipCurrencyId || ctx.chipCurrencyId !== 4) {
    throw new Error('scale-seed expects the app-seeded currencies only (SD, SN, CR, ASC): use a new database');
  }
  await conn.query(
    `INSERT INTO currencies (currency_id, ticker, name, precision, can_transfer, can_mint, can_burn, created_at)
     VALUES (${GEM}, 'GEM', 'Gemstone', 2, true, true, true, ${ts(ctx.t0)}),
            (${ORE}, 'ORE', 'Star Ore', 2, true, true, true, ${ts(ctx.t0)})`,
  );
  await conn.query(
    `UPDATE currencies SET can_deposit = true, can_withdraw = true, withdraw_tax = 0.005 WHERE currency_id = 2`,
  );
  await conn.query(`UPDATE currencies SET created_at = ${ts(ctx.t0 - 86_400)} WHERE currency_id <= 4`);
}

/**
 * Tops the chip sale's supply up to `chips` (a mint to the sale, as the app's seed writes it) when the
 * chips to be bought and granted need more than it holds.
 */
export async function ensureChipSupply(conn: Conn, ctx: SeedContext, chips: number): Promise<void> {
  const [row] = await conn.query<{ held: string }>(
    `SELECT coalesce(sum(CASE WHEN recipient_id = $1 THEN amount ELSE -amount END), 0)::bigint::text AS held
       FROM bank_transactions WHERE currency_id = $2 AND (recipient_id = $1 OR sender_id = $1)`,
    [ctx.saleId, ctx.chipCurrencyId],
  );
  const missing = chips - Number(row?.held ?? 0);
  if (missing <= 0) return;
  await conn.query(
    ledgerInsert(`SELECT ${S}.oid('17', ${ts(ctx.t0)}, 1), ${ts(ctx.t0)}, 10, ${ctx.chipCurrencyId}, ${missing}, NULL, NULL,
                         '${ctx.saleId}', false, 'Synth chip supply: ${missing}', NULL`),
  );
}

/** Admin mints to members (10), burns from funded members (11) and a few distributions (3). */
export async function insertMintsBurnsDistributions(conn: Conn, ctx: SeedContext): Promise<void> {
  const { plan } = ctx;
  const a0 = activityStart(ctx);
  const at = `to_timestamp(${a0} + random() * ${ctx.now - 60 - a0})`;
  const admin = `'${ctx.adminId}'`;
  await conn.query(
    ledgerInsert(`
     SELECT ${S}.oid('12', t.at, g), t.at, 10, t.c, ${S}.heavy(5, random(), 1000000), ${admin}, NULL,
            ${S}.uid(${S}.anyone(t.at, random())), false, 'Manual mint', NULL
       FROM generate_series(1, ${plan.mints}) g
       CROSS JOIN LATERAL (SELECT ${at} AS at, (ARRAY[1, 2, 3, 5, 6])[1 + g % 5] AS c) t`),
  );
  await conn.query(
    ledgerInsert(`
     SELECT ${S}.oid('13', t.at, g), t.at, 11, t.c, ${S}.heavy(1, random(), 500), ${admin},
            ${S}.uid(${S}.pick(t.c, t.at, random(), random())), NULL, false, 'Manual burn', NULL
       FROM generate_series(1, ${plan.burns}) g
       CROSS JOIN LATERAL (SELECT ${at} AS at, (ARRAY[1, 2, 5, 6])[1 + g % 4] AS c) t`),
  );
  // Distributions: a holder shares whole units of A among holders of B (category 3, one row each).
  await conn.query(
    ledgerInsert(`
     SELECT ${S}.oid('14', d.at, d.g * 4294967296 + r.k), d.at, 3, d.c, r.share, ${S}.uid(d.sender), ${S}.uid(d.sender),
            ${S}.uid(r.k), false, 'Distribution to ' || d.target_ticker || ' holders', NULL
       FROM (SELECT g, x.at, x.c, x.target_ticker, ${S}.pick(x.c, x.at, random() * 0.1, random()) AS sender
               FROM generate_series(1, ${plan.distributions}) g
               CROSS JOIN LATERAL (SELECT to_timestamp(${a0} + (g - 0.5) / ${plan.distributions} * ${ctx.now - a0}) AS at,
                                          (ARRAY[1, 2, 5])[1 + g % 3] AS c,
                                          (ARRAY['GEM', 'ORE', 'SN'])[1 + g % 3] AS target_ticker) x) d
       CROSS JOIN LATERAL (
         SELECT k, greatest(1, floor(${S}.heavy(1, min(u), 1000)))::numeric AS share
           FROM (SELECT ${S}.pick((ARRAY[${GEM}, ${ORE}, 2])[1 + d.g % 3], d.at, random(), random()) AS k, random() AS u
                   FROM generate_series(1, ${plan.distributionRecipients})) p
          WHERE k <> d.sender GROUP BY k) r`),
  );
}

/**
 * Deposits and withdrawals of SN with their settlements (DESIGN §8): an approved deposit credits (1);
 * a withdrawal debits its amount (2) and tax (4) when opened, and a refused one pays both back (1).
 */
export async function insertSettlements(conn: Conn, ctx: SeedContext): Promise<void> {
  const { plan } = ctx;
  const a0 = activityStart(ctx);
  await conn.query(
    `CREATE UNLOGGED TABLE ${S}.st AS
     SELECT ${S}.oid('f3', t.at, g) AS id, t.*,
            CASE WHEN t.kind = 'withdrawal' THEN ceil(t.amount * 0.005 * 100) / 100 ELSE 0 END AS tax,
            CASE WHEN t.state = 'pending' THEN NULL ELSE least(t.at + random() * interval '2 days', ${ts(ctx.now - 60)}) END AS settled_at
       FROM generate_series(1, ${plan.settlements}) g
       CROSS JOIN LATERAL (
         SELECT x.at, x.kind, x.u,
                CASE WHEN x.kind = 'deposit' THEN ${S}.anyone(x.at, random()) ELSE ${S}.pick(2, x.at, random(), random()) END AS k,
                ${S}.heavy(5, random(), 20000) AS amount,
                CASE WHEN x.u < 0.1 THEN 'pending' WHEN x.kind = 'deposit' AND x.u < 0.3 THEN 'refused'
                     WHEN x.kind = 'withdrawal' AND x.u < 0.2 THEN 'refused' ELSE 'approved' END AS state
           FROM (SELECT CASE WHEN g % 2 = 0 THEN 'deposit' ELSE 'withdrawal' END AS kind, u,
                        CASE WHEN u < 0.1 THEN to_timestamp(${ctx.now - 60} - random() * 7 * 86400)
                             ELSE to_timestamp(${a0} + random() * ${ctx.now - 7 * 86_400 - a0}) END AS at
                   FROM (SELECT random() AS u) r) x) t`,
  );
  await conn.query(
    `INSERT INTO settlements (id, kind, user_id, currency_id, amount, tax, wallet_address, reference, state, note,
                              settled_by, created_at, settled_at)
     SELECT id, kind, ${S}.uid(k), 2, amount, tax, '0x' || md5('wallet' || k) || substr(md5('w' || k), 1, 8),
            CASE WHEN kind = 'deposit' THEN '0x' || md5(id) || md5(id || 'r') ELSE '' END, state,
            CASE WHEN state = 'refused' THEN 'Not found on chain' ELSE '' END,
            CASE WHEN settled_at IS NOT NULL THEN '${ctx.adminId}' END, at, settled_at
       FROM ${S}.st ORDER BY at`,
  );
  await conn.query(
    ledgerInsert(`
     SELECT ${S}.oid(r.tag, r.at, row_number() OVER ()), r.at, r.category, 2, r.amount, r.executor, r.sender, r.recipient,
            false, r.note, s.id
       FROM ${S}.st s CROSS JOIN LATERAL (VALUES
         ('16', s.at, 2, s.amount, ${S}.uid(s.k), ${S}.uid(s.k), NULL, 'Withdrawal to 0x' || md5('wallet' || s.k), s.kind = 'withdrawal'),
         ('16', s.at, 4, s.tax, ${S}.uid(s.k), ${S}.uid(s.k), NULL, 'Withdrawal tax', s.kind = 'withdrawal'),
         ('18', s.settled_at, 1, s.amount, '${ctx.adminId}', NULL, ${S}.uid(s.k), 'Deposit approved',
                s.kind = 'deposit' AND s.state = 'approved'),
         ('18', s.settled_at, 1, s.amount + s.tax, '${ctx.adminId}', NULL, ${S}.uid(s.k),
                'Withdrawal refused: paid back with its tax', s.kind = 'withdrawal' AND s.state = 'refused')
       ) r(tag, at, category, amount, executor, sender, recipient, note, happens)
      WHERE r.happens AND r.amount > 0`),
  );
}

/**
 * Member transfers (category 3) filling the ledger to SCALE_TX rows: `rows` rows in all, SD ones taxed
 * (1%, a category 4 row to the collector, rounded up as `feeOf` does), SN, GEM and ORE untaxed;
 * `member1Rows` of them sent or received by member1.
 */
export async function insertTransfers(conn: Conn, ctx: SeedContext, rows: number, member1Rows: number): Promise<void> {
  if (rows <= 0) return;
  const a0 = activityStart(ctx);
  const taxed = Math.floor(rows * 0.3);
  const plain = rows - 2 * taxed;
  const m1Taxed = Math.min(taxed, Math.floor(member1Rows / 4));
  const m1Plain = Math.min(plain, Math.max(0, member1Rows - 2 * m1Taxed));
  // One transfer per g: member1 sends the first half of their share and receives the second.
  const transfers = (count: number, m1: number, currencies: string) => `
     SELECT g, x.at, x.c, x.amount, x.sender,
            CASE WHEN x.recipient <> x.sender THEN x.recipient WHEN x.sender > 1 THEN x.sender - 1 ELSE 2 END AS recipient
       FROM generate_series(1, ${count}) g
       CROSS JOIN LATERAL (SELECT to_timestamp(${a0} + random() * ${ctx.now - 60 - a0}) AS at,
                                  (${currencies})[1 + g % cardinality(${currencies})] AS c) t0
       CROSS JOIN LATERAL (
         SELECT t0.at, t0.c, greatest(0.02, ${S}.heavy(0.5, random(), 100000)) AS amount,
                CASE WHEN g <= ${Math.ceil(m1 / 2)} THEN 1 ELSE ${S}.pick(t0.c, t0.at, random(), random()) END AS sender,
                CASE WHEN g > ${Math.ceil(m1 / 2)} AND g <= ${m1} THEN 1 ELSE ${S}.anyone(t0.at, random()) END AS recipient) x`;
  const notes = `(ARRAY['', '', '', 'Thanks!', 'For the ships', 'Rent', 'gg', 'Guild share'])[1 + floor(random() * 8)::int]`;
  await conn.query(
    ledgerInsert(`
     SELECT ${S}.oid(r.tag, tr.at, tr.g), tr.at, r.category, 1, r.amount, ${S}.uid(tr.sender), ${S}.uid(tr.sender),
            r.recipient, false, r.note, NULL
       FROM (${transfers(taxed, m1Taxed, "'{1}'::int[]")}) tr
       CROSS JOIN LATERAL (SELECT ceil(tr.amount * 0.01 * 100) / 100 AS tax) f
       CROSS JOIN LATERAL (VALUES
         ('10', 3, tr.amount - f.tax, ${S}.uid(tr.recipient), ${notes}),
         ('11', 4, f.tax, '${ctx.adminId}', 'Transfer tax to ${ctx.adminNickname}')
       ) r(tag, category, amount, recipient, note)`),
  );
  await conn.query(
    ledgerInsert(`
     SELECT ${S}.oid('19', tr.at, tr.g), tr.at, 3, tr.c, tr.amount, ${S}.uid(tr.sender), ${S}.uid(tr.sender),
            ${S}.uid(tr.recipient), false, ${notes}, NULL
       FROM (${transfers(plain, m1Plain, `'{2,${GEM},${ORE}}'::int[]`)}) tr`),
  );
}

/** The heavy-tailed holding each funded member ends with, per currency: the smallest typical amount. */
const HOLDING_LOW: Record<number, number> = { 1: 20, 2: 10, 3: 600, 5: 2, 6: 10 };

/**
 * The members' funding rows and every balance: nets per (member, currency) from the whole ledger,
 * one early issuing row per funded member (a deposit of SN, else a mint) of what the member's
 * payments need beyond what they received plus a heavy-tailed holding (into the staged ledger, which
 * `moveLedger` then moves into `bank_transactions`); `insertBalances` makes the balances from it.
 */
export async function insertFunding(conn: Conn, ctx: SeedContext): Promise<void> {
  await conn.query(
    `CREATE UNLOGGED TABLE ${S}.net AS
     SELECT v.u AS user_id, t.currency_id, sum(v.d) AS net
       FROM (SELECT currency_id, amount, sender_id::text, recipient_id::text FROM bank_transactions
             UNION ALL SELECT currency_id, amount, sender_id, recipient_id FROM ${S}.ledger) t
       CROSS JOIN LATERAL (VALUES (t.sender_id, -t.amount), (t.recipient_id, t.amount)) v(u, d)
      WHERE v.u IS NOT NULL GROUP BY 1, 2`,
  );
  await conn.query(`ANALYZE ${S}.net`);
  const sets = Object.entries(FUNDED)
    .map(([c, rs]) => `(${c}, '{${rs.join(',')}}'::int[], ${HOLDING_LOW[Number(c)] ?? 1})`)
    .join(', ');
  await conn.query(
    `CREATE UNLOGGED TABLE ${S}.fund AS
     SELECT f.k, f.c, f.user_id, greatest(-coalesce(n.net, 0), 0) + ${S}.heavy(f.low, random(), 100000000) AS amount
       FROM (SELECT 20 * j + r AS k, fs.c, fs.low, ${S}.uid(20 * j + r) AS user_id
               FROM (VALUES ${sets}) fs(c, rs, low) CROSS JOIN LATERAL unnest(fs.rs) r
               CROSS JOIN LATERAL generate_series(0, (${ctx.n} - r) / 20) j) f
       LEFT JOIN ${S}.net n ON n.user_id = f.user_id AND n.currency_id = f.c`,
  );
  await conn.query(`ANALYZE ${S}.fund`);
  await conn.query(
    ledgerInsert(`
     SELECT ${S}.oid('15', t.at, f.k * 8 + f.c), t.at, CASE WHEN f.c = 2 THEN 1 ELSE 10 END, f.c, f.amount,
            '${ctx.adminId}', NULL, f.user_id, false, CASE WHEN f.c = 2 THEN 'Deposit' ELSE 'Welcome grant' END, NULL
       FROM ${S}.fund f CROSS JOIN LATERAL (SELECT ${S}.created(f.k) + interval '30 seconds' AS at) t`),
  );
}

/** `balances` = the ledger's rows per (member, currency) (after `insertFunding`); the app seed's rows are replaced. */
export async function insertBalances(conn: Conn): Promise<void> {
  await conn.query(`CREATE UNLOGGED TABLE ${S}.oldbal AS SELECT user_id::text AS user_id, currency_id FROM balances`);
  await conn.query('DELETE FROM balances');
  await conn.query(
    `INSERT INTO balances (user_id, currency_id, amount)
     SELECT coalesce(n.user_id, f.user_id, o.user_id), coalesce(n.currency_id, f.c, o.currency_id),
            coalesce(n.net, 0) + coalesce(f.amount, 0)
       FROM ${S}.net n
       FULL JOIN ${S}.fund f ON f.user_id = n.user_id AND f.c = n.currency_id
       FULL JOIN ${S}.oldbal o ON o.user_id = coalesce(n.user_id, f.user_id) AND o.currency_id = coalesce(n.currency_id, f.c)
      ORDER BY 1, 2`,
  );
}
