/**
 * The Quantum Hub of `make scale-seed`: six pairs, their orders and trades over the
 * history, an open book on each pair (the busiest deepest), and every ledger row they imply, by the
 * engine's rules (matching.engine.ts, orders.escrow.ts):
 * - history: per pair and month, the buy and the sell orders are two queues of quantities laid on one
 *   axis; each stretch where one buy and one sell overlap is a trade (the order that starts there is the
 *   taker, at that moment; the other rests, and the trade is at its price). Every trade therefore fills
 *   at least one order, as in the engine, and each order is filled exactly by its trades. Prices follow
 *   a curve per pair; a buy may be priced above a sell (price improvement back to the buyer, 22).
 * - some filled orders had more, cancelled after their last trade (21 returns what was left); some
 *   orders were cancelled untouched; the open book (state 1) rests away from the last price, buys below
 *   sells, with escrow exactly `buyEscrowFor(remaining, price)` (buys) or the quantity (sells).
 * Quantities are whole units and prices whole cents, so every amount is exact at precision 2.
 */
import { type Conn, ledgerInsert, lit, S, type SeedContext, ts } from './scale-seed.sql.ts';

interface PairSpec {
  idx: number;
  buy: number;
  sell: number;
  /** Starting price, sellCurrency per unit. */
  base: number;
  /** Share of all trades. */
  share: number;
  /** The resting side's fee and the incoming side's (DESIGN §11.4). */
  makerFee: string;
  takerFee: string;
}

const PAIRS: PairSpec[] = [
  { idx: 1, buy: 2, sell: 1, base: 1.0, share: 0.45, makerFee: '0', takerFee: '0' },
  { idx: 2, buy: 5, sell: 1, base: 25.0, share: 0.15, makerFee: '0', takerFee: '0' },
  { idx: 3, buy: 6, sell: 1, base: 3.0, share: 0.15, makerFee: '0', takerFee: '0' },
  { idx: 4, buy: 5, sell: 2, base: 24.0, share: 0.1, makerFee: '0', takerFee: '0' },
  { idx: 5, buy: 6, sell: 2, base: 2.9, share: 0.1, makerFee: '0', takerFee: '0' },
  { idx: 6, buy: 5, sell: 6, base: 8.5, share: 0.05, makerFee: '0.0025', takerFee: '0.005' },
];
/** Months of history (each pair's queues close at a month's end). */
const CHUNKS = 24;
/** Units per price step: every order lies within one step (its bounds are breakpoints of both queues). */
const CELL = 600;
/** Open orders rest in the last 30 days. */
const OPEN_DAYS = 30;

/** The exchange's window: from 60 days after the start to an hour ago. */
function window(ctx: SeedContext) {
  const start = ctx.t0 + 60 * 86_400;
  const end = ctx.now - 3600;
  return { start, end, len: (end - start) / CHUNKS };
}

/** Staging: pairs, queue points, orders and trades (unlogged scratch tables). */
export async function stageExchange(conn: Conn, ctx: SeedContext, tickers: Map<number, string>): Promise<void> {
  const { plan } = ctx;
  const w = window(ctx);
  const totalOrders = plan.trades + plan.cancelledOrders + plan.openOrdersBusiest + 5 * plan.openOrdersOther;
  // member1's orders: one side per month, so member1 never meets their own order.
  const m1 = Math.min(0.5, (plan.member1.orders * 1.15) / totalOrders);
  const values = PAIRS.map((p) => {
    // 4% more queue points than trades: a buy and a sell point that meet make one trade, not two.
    const n = Math.max(4, Math.round((plan.trades * p.share * 1.04) / CHUNKS));
    const open = p.idx === 1 ? plan.openOrdersBusiest : plan.openOrdersOther;
    const id = `${S}.oid('b0', ${ts(w.start - 3600)}, ${p.idx})`;
    return `(${p.idx}, ${id}, ${p.buy}, ${p.sell}, ${p.base}, ${n}, ${n * 10}::bigint, ${p.makerFee}::numeric,
             ${p.takerFee}::numeric, ${open},
             ${lit(tickers.get(p.buy) ?? '')}, ${lit(tickers.get(p.sell) ?? '')},
             ${p.makerFee === '0' && p.takerFee === '0' ? 'NULL' : lit(ctx.adminId)})`;
  }).join(',\n');
  await conn.query(`CREATE UNLOGGED TABLE ${S}.xpair AS SELECT * FROM (VALUES ${values})
                      v(pair, id, buy_cur, sell_cur, base, n, xlen, maker_fee, taker_fee, open, bt, st, collector)`);
  await conn.query(
    `INSERT INTO exchange_pairs (id, buy_currency, sell_currency, fee, maker_fee, taker_fee, fee_collector_id,
                                 created_at, updated_at)
     SELECT id, buy_cur, sell_cur, greatest(maker_fee, taker_fee), maker_fee, taker_fee, collector,
            ${ts(w.start - 3600)}, ${ts(w.start - 3600)} FROM ${S}.xpair`,
  );
  // Queue points: each order of a side starts at one; 0 and every price step start one on both sides.
  await conn.query(
    `CREATE UNLOGGED TABLE ${S}.xpt AS
     SELECT DISTINCT p.pair, c.chunk, s.buy, pts.x
       FROM ${S}.xpair p CROSS JOIN generate_series(0, ${CHUNKS - 1}) c(chunk) CROSS JOIN (VALUES (true), (false)) s(buy)
       CROSS JOIN LATERAL (
         SELECT 0::bigint AS x
         UNION ALL SELECT 1 + floor(random() * (p.xlen - 1))::bigint FROM generate_series(1, p.n / 2 - 1) WHERE s.buy IS NOT NULL AND c.chunk >= 0
         UNION ALL SELECT g::bigint * ${CELL} FROM generate_series(1, (p.xlen - 1) / ${CELL}) g
       ) pts`,
  );
  // The price of a step: a curve per pair around its base, whole cents.
  const cellPrice = (cell: string) =>
    `greatest(0.01, round((p.base * exp(0.25 * sin(${cell} / 97.0 + p.pair) + 0.08 * sin(${cell} / 13.0 + 2 * p.pair)
                                         + 0.03 * sin(${cell} * 1.7)))::numeric, 2))`;
  const cellOf = `(q.chunk * (p.xlen / ${CELL} + 1) + q.x0 / ${CELL})`;
  const timeOf = `to_timestamp(${w.start} + (q.chunk + q.x0::float8 / p.xlen) * ${w.len} - CASE WHEN q.buy THEN 0 ELSE 1 END)`;
  await conn.query(
    `CREATE UNLOGGED TABLE ${S}.xo AS
     SELECT q.pair, q.chunk, q.buy, q.ord, q.x1 - q.x0 AS qty, t.created_at,
            ${S}.oid('b1', t.created_at, ((q.pair * 256 + q.chunk) * 2 + q.buy::int) * 68719476736 + q.ord) AS id,
            CASE WHEN (q.chunk % 2 = 0) = q.buy AND r.u0 < ${Math.min(0.9, 2 * m1)} THEN 1
                 ELSE ${S}.pick(CASE WHEN q.buy THEN p.sell_cur ELSE p.buy_cur END, t.created_at, r.u1, r.u2) END AS owner,
            CASE WHEN q.buy THEN ${cellPrice(cellOf)} + CASE WHEN r.u3 < 0.15 THEN 0.01 * (1 + floor(r.u4 * 3)) ELSE 0 END
                 ELSE greatest(0.01, ${cellPrice(cellOf)} - CASE WHEN r.u3 < 0.15 THEN 0.01 * (1 + floor(r.u4 * 3)) ELSE 0 END) END AS price,
            CASE WHEN r.u5 < 0.05 THEN 1 + floor(r.u6 * 20)::bigint ELSE 0 END AS extra
       FROM (SELECT pair, chunk, buy, x AS x0, row_number() OVER w AS ord,
                    lead(x, 1, (SELECT xlen FROM ${S}.xpair pp WHERE pp.pair = xpt.pair)) OVER w AS x1
               FROM ${S}.xpt WINDOW w AS (PARTITION BY pair, chunk, buy ORDER BY x)) q
       JOIN ${S}.xpair p USING (pair)
       CROSS JOIN LATERAL (SELECT ${timeOf} AS created_at) t
       CROSS JOIN LATERAL (SELECT random() AS u0, random() AS u1, random() AS u2, random() AS u3, random() AS u4,
                                  random() AS u5, random() AS u6 WHERE q.ord > 0) r`,
  );
  await conn.query(`ANALYZE ${S}.xpt`);
  await conn.query(`ANALYZE ${S}.xo`);
  // Trades: each stretch between consecutive points, between the buy and the sell that cover it (the
  // stretches are kept first, so the join to the orders is a hash join on plain columns).
  await conn.query(
    `CREATE UNLOGGED TABLE ${S}.xseg AS
     SELECT pair, chunk, x, bs,
            count(*) FILTER (WHERE bs) OVER w AS bord, count(*) FILTER (WHERE ss) OVER w AS sord,
            row_number() OVER w AS segno,
            lead(x, 1, (SELECT xlen FROM ${S}.xpair pp WHERE pp.pair = seg.pair)) OVER w AS xn
       FROM (SELECT pair, chunk, x, bool_or(buy) AS bs, bool_or(NOT buy) AS ss FROM ${S}.xpt GROUP BY pair, chunk, x) seg
     WINDOW w AS (PARTITION BY pair, chunk ORDER BY x)`,
  );
  await conn.query(`ANALYZE ${S}.xseg`);
  await conn.query(
    `CREATE UNLOGGED TABLE ${S}.xtr AS
     SELECT n.pair, n.segno, n.xn - n.x AS qty, n.bs AS taker_buy,
            b.id AS buy_id, s.id AS sell_id, b.owner AS buyer, s.owner AS seller,
            ${S}.uid(b.owner) AS buyer_id, ${S}.uid(s.owner) AS seller_id,
            CASE WHEN n.bs THEN b.created_at ELSE s.created_at END AS created_at,
            CASE WHEN n.bs THEN s.price ELSE b.price END AS price,
            b.price AS buy_price, n.chunk
       FROM ${S}.xseg n
       JOIN ${S}.xo b ON b.pair = n.pair AND b.chunk = n.chunk AND b.buy = true AND b.ord = n.bord
       JOIN ${S}.xo s ON s.pair = n.pair AND s.chunk = n.chunk AND s.buy = false AND s.ord = n.sord`,
  );
  await conn.query(`ANALYZE ${S}.xtr`);
}

/**
 * Stages every order of the pairs (history, cancelled, open) with what `exchange_orders` needs:
 * quantities, prices, states, what escrow still holds, and when each was last changed.
 */
export async function stageOrders(conn: Conn, ctx: SeedContext): Promise<void> {
  const { plan } = ctx;
  const w = window(ctx);
  const totalOrders = plan.trades + plan.cancelledOrders + plan.openOrdersBusiest + 5 * plan.openOrdersOther;
  const m1 = Math.min(0.5, (plan.member1.orders * 1.15) / totalOrders);
  const curve = (cell: string) =>
    `greatest(0.01, round((p.base * exp(0.25 * sin(${cell} / 97.0 + p.pair) + 0.08 * sin(${cell} / 13.0 + 2 * p.pair)
                                         + 0.03 * sin(${cell} * 1.7)))::numeric, 2))`;
  // Every order, staged with what the table needs.
  await conn.query(
    `CREATE UNLOGGED TABLE ${S}.xall AS
     WITH last AS (
       SELECT id, max(created_at) AS at FROM (
         SELECT buy_id AS id, created_at FROM ${S}.xtr UNION ALL SELECT sell_id, created_at FROM ${S}.xtr) x
        GROUP BY id
     )
     SELECT o.id, o.pair, o.buy, o.owner, o.created_at, o.price, o.qty + o.extra AS initial, o.qty AS filled,
            CASE WHEN o.extra > 0 THEN 2 ELSE 3 END AS state, 0::numeric AS escrow_left,
            CASE WHEN o.extra > 0 THEN least(l.at + random() * interval '3 days', ${ts(ctx.now - 60)}) ELSE l.at END AS updated_at
       FROM ${S}.xo o JOIN last l USING (id)
     UNION ALL
     SELECT ${S}.oid('b3', t.at, g), p.pair, t.buy, t.owner, t.at, t.price, t.q, 0, 2, 0,
            least(t.at + random() * interval '2 days', ${ts(ctx.now - 60)})
       FROM generate_series(1, ${plan.cancelledOrders}) g
       JOIN ${S}.xpair p ON p.pair = 1 + g % 6
       CROSS JOIN LATERAL (SELECT to_timestamp(${w.start} + random() * (${w.end - w.start})) AS at, random() < 0.5 AS buy) t0
       CROSS JOIN LATERAL (
         SELECT t0.at, t0.buy, (1 + floor(random() * random() * 50))::bigint AS q,
                CASE WHEN random() < ${m1} THEN 1
                     ELSE ${S}.pick(CASE WHEN t0.buy THEN p.sell_cur ELSE p.buy_cur END, t0.at, random(), random()) END AS owner,
                greatest(0.01, round(${curve(`floor((extract(epoch FROM t0.at) - ${w.start}) / ${w.len}) * (p.xlen / ${CELL} + 1)`)}
                                     * (CASE WHEN t0.buy THEN 0.97 ELSE 1.03 END), 2)) AS price) t
     UNION ALL
     SELECT ${S}.oid('b4', t.at, p.pair * 68719476736 + g), p.pair, t.buy, t.owner, t.at, t.price, t.q, 0, 1,
            CASE WHEN t.buy THEN t.q * t.price ELSE t.q END, t.at
       FROM ${S}.xpair p CROSS JOIN LATERAL generate_series(1, p.open) g
       CROSS JOIN LATERAL (SELECT to_timestamp(${ctx.now - 120} - random() * ${OPEN_DAYS * 86_400}) AS at,
                                  g % 2 = 0 AS buy, random() AS u,
                                  ${curve(`(${CHUNKS - 1} * (p.xlen / ${CELL} + 1) + (p.xlen - 1) / ${CELL})`)} AS last) t0
       CROSS JOIN LATERAL (
         SELECT t0.at, t0.buy, (1 + floor(random() * random() * 100))::bigint AS q,
                CASE WHEN random() < ${m1} THEN 1
                     ELSE ${S}.pick(CASE WHEN t0.buy THEN p.sell_cur ELSE p.buy_cur END, t0.at, random(), random()) END AS owner,
                CASE WHEN t0.buy THEN greatest(0.01, floor(t0.last * (0.999 - 0.25 * t0.u * t0.u) * 100) / 100)
                     ELSE ceil(t0.last * (1.001 + 0.25 * t0.u * t0.u) * 100) / 100 END AS price) t`,
  );
  await conn.query(`ANALYZE ${S}.xall`);
}

/** Writes the staged orders in time order, `seq` following it, and the identity sequence after them. */
export async function insertOrders(conn: Conn): Promise<void> {
  await conn.query(
    `INSERT INTO exchange_orders (id, seq, pair_id, user_id, buy_side, initial_amount, filled_amount, price, state,
                                  escrow_remaining, created_at, updated_at) OVERRIDING SYSTEM VALUE
     SELECT a.id, row_number() OVER (ORDER BY a.created_at, a.id), p.id, ${S}.uid(a.owner), a.buy, a.initial, a.filled,
            a.price, a.state, a.escrow_left, a.created_at, a.updated_at
       FROM ${S}.xall a JOIN ${S}.xpair p USING (pair)
      ORDER BY a.created_at, a.id`,
  );
  await conn.query(
    `SELECT setval(pg_get_serial_sequence('exchange_orders', 'seq'), (SELECT coalesce(max(seq), 0) + 1 FROM exchange_orders), false)`,
  );
}

/** A trade's buyer pays the taker fee when their order came in, the maker fee when it rested (DESIGN §11.4). */
const BUYER_FEE = '(CASE WHEN t.taker_buy THEN p.taker_fee ELSE p.maker_fee END)';
/** A trade's seller pays the other side's fee. */
const SELLER_FEE = '(CASE WHEN t.taker_buy THEN p.maker_fee ELSE p.taker_fee END)';

/** Writes the staged trades in time order, `seq` following it, and the identity sequence after them. */
export async function insertTrades(conn: Conn): Promise<void> {
  await conn.query(
    `INSERT INTO exchange_trades (id, seq, pair_id, buy_order_id, sell_order_id, taker_buy_side, price, amount, cost,
                                  buyer_fee, seller_fee, created_at) OVERRIDING SYSTEM VALUE
     SELECT ${S}.oid('b2', t.created_at, (t.pair * 256 + t.chunk) * 68719476736 + t.segno),
            row_number() OVER (ORDER BY t.created_at, t.buy_id, t.sell_id), p.id, t.buy_id, t.sell_id, t.taker_buy,
            t.price, t.qty, t.qty * t.price,
            ceil(t.qty * ${BUYER_FEE} * 100) / 100, ceil(t.qty * t.price * ${SELLER_FEE} * 100) / 100, t.created_at
       FROM ${S}.xtr t JOIN ${S}.xpair p USING (pair)
      ORDER BY t.created_at, t.buy_id, t.sell_id`,
  );
  await conn.query(
    `SELECT setval(pg_get_serial_sequence('exchange_trades', 'seq'), (SELECT coalesce(max(seq), 0) + 1 FROM exchange_trades), false)`,
  );
}

/** The orders' ledger rows: escrow in (20) and what a cancel returned (21). */
export async function insertOrderLedger(conn: Conn): Promise<void> {
  const amountText = `a.initial || ' ' || p.bt || ' at ' || a.price || ' ' || p.st`;
  await conn.query(
    ledgerInsert(`
     SELECT ${S}.oid('20', a.created_at, row_number() OVER ()), a.created_at, 20,
            CASE WHEN a.buy THEN p.sell_cur ELSE p.buy_cur END,
            CASE WHEN a.buy THEN a.initial * a.price ELSE a.initial END,
            ${S}.uid(a.owner), ${S}.uid(a.owner), NULL, true,
            'Escrow for ' || CASE WHEN a.buy THEN 'buy' ELSE 'sell' END || ' order of ' || ${amountText}, a.id
       FROM ${S}.xall a JOIN ${S}.xpair p USING (pair)`),
  );
  await conn.query(
    ledgerInsert(`
     SELECT ${S}.oid('26', a.updated_at, row_number() OVER ()), a.updated_at, 21,
            CASE WHEN a.buy THEN p.sell_cur ELSE p.buy_cur END,
            CASE WHEN a.buy THEN (a.initial - a.filled) * a.price ELSE a.initial - a.filled END,
            ${S}.uid(a.owner), NULL, ${S}.uid(a.owner), true, 'Order cancelled: escrow returned', a.id
       FROM ${S}.xall a JOIN ${S}.xpair p USING (pair) WHERE a.state = 2`),
  );
}

/** The trades' ledger rows: proceeds and price improvement out of escrow (22), fees (23). */
export async function insertTradeLedger(conn: Conn): Promise<void> {
  const what = `t.qty || ' ' || p.bt || ' at ' || t.price || ' ' || p.st`;
  const taker = 'CASE WHEN t.taker_buy THEN t.buyer_id ELSE t.seller_id END';
  await conn.query(
    ledgerInsert(`
     SELECT ${S}.oid(r.tag, t.created_at, t.n), t.created_at, r.category, r.currency_id, r.amount, ${taker},
            r.sender, r.recipient, r.escrow, r.note, r.reference
       FROM (SELECT row_number() OVER () AS n, * FROM ${S}.xtr) t JOIN ${S}.xpair p USING (pair)
       CROSS JOIN LATERAL (VALUES
         ('21', 22, p.sell_cur, t.qty * t.price, NULL, t.seller_id, true, 'Sold ' || ${what}, t.buy_id),
         ('22', 22, p.buy_cur, t.qty, NULL, t.buyer_id, true, 'Bought ' || ${what}, t.sell_id),
         ('23', 22, p.sell_cur, t.qty * (t.buy_price - t.price), NULL, t.buyer_id, true,
                'Escrow returned: price improvement', t.buy_id),
         ('24', 23, p.buy_cur, ceil(t.qty * ${BUYER_FEE} * 100) / 100, t.buyer_id, p.collector, false,
                'Exchange fee on ' || ${what}, t.buy_id),
         ('25', 23, p.sell_cur, ceil(t.qty * t.price * ${SELLER_FEE} * 100) / 100, t.seller_id, p.collector, false,
                'Exchange fee on ' || ${what}, t.sell_id)
       ) r(tag, category, currency_id, amount, sender, recipient, escrow, note, reference)
      WHERE r.amount > 0`),
  );
}
