/**
 * The notifications of `make scale-seed` (DESIGN §11.3), as the app writes them:
 * - a `transfer_received` row for every transfer received in the kept 90 days (older ones are pruned),
 *   and an `order_filled` row to the buyer and the seller of every trade of those days, read when older
 *   than a week;
 * - a broadcast every three days (one in five to one role), and a read marker for every member who has
 *   read any, a week back.
 */
import { type Conn, lit, S, type SeedContext, ts } from './scale-seed.sql.ts';

/** How far back notifications are kept (the app's pruning): 90 days, in seconds. */
const KEPT_SECONDS = 90 * 86_400;
/** Notifications older than this are read (seconds). */
const READ_AFTER_SECONDS = 7 * 86_400;

/** Inserts the transfer notifications from the staged ledger (SPEC §3 category 3), as the transfer writes them. */
export async function insertTransferNotifications(conn: Conn, ctx: SeedContext): Promise<void> {
  const from = ts(ctx.now - KEPT_SECONDS);
  const readBefore = ts(ctx.now - READ_AFTER_SECONDS);
  await conn.query(
    `INSERT INTO notifications (id, user_id, kind, title, body, link, created_at, read_at)
     SELECT ${S}.oid('e1', l.created_at, row_number() OVER ()), l.recipient_id, 'transfer_received',
            'You received ' || rtrim(rtrim(l.amount::text, '0'), '.') || ' ' || c.ticker,
            'From ' || u.nickname || CASE WHEN l.note <> '' THEN ': "' || l.note || '"' ELSE '' END,
            '/userbank', l.created_at, CASE WHEN l.created_at < ${readBefore} THEN l.created_at + interval '1 hour' END
       FROM ${S}.ledger l
       JOIN currencies c ON c.currency_id = l.currency_id
       JOIN users u ON u.id = l.sender_id
      WHERE l.category = 3 AND l.created_at >= ${from}`,
  );
}

/** Inserts an `order_filled` notification to each side of every trade of the kept days. */
export async function insertFillNotifications(conn: Conn, ctx: SeedContext): Promise<void> {
  const readBefore = ts(ctx.now - READ_AFTER_SECONDS);
  const num = (x: string) => `rtrim(rtrim(${x}::text, '0'), '.')`;
  await conn.query(
    `INSERT INTO notifications (id, user_id, kind, title, body, link, created_at, read_at)
     SELECT ${S}.oid(CASE WHEN s.buy THEN 'e3' ELSE 'e4' END, t.created_at, t.seq), o.user_id, 'order_filled',
            'Your ' || CASE WHEN s.buy THEN 'buy' ELSE 'sell' END || ' order on ' || b.ticker || '/' || q.ticker || ' filled',
            ${num('t.amount')} || ' ' || b.ticker || ' at ' || ${num('t.price')} || ' ' || q.ticker,
            '/quantumhub', t.created_at, CASE WHEN t.created_at < ${readBefore} THEN t.created_at + interval '1 hour' END
       FROM exchange_trades t
       CROSS JOIN (VALUES (true), (false)) s(buy)
       JOIN exchange_orders o ON o.id = CASE WHEN s.buy THEN t.buy_order_id ELSE t.sell_order_id END
       JOIN exchange_pairs p ON p.id = t.pair_id
       JOIN currencies b ON b.currency_id = p.buy_currency
       JOIN currencies q ON q.currency_id = p.sell_currency
      WHERE t.created_at >= ${ts(ctx.now - KEPT_SECONDS)}`,
  );
}

/** Inserts the broadcasts (every three days) and the members' read markers (a week back). */
export async function insertBroadcasts(conn: Conn, ctx: SeedContext): Promise<void> {
  const every = 3 * 86_400;
  const count = Math.floor(KEPT_SECONDS / every);
  await conn.query(
    `INSERT INTO broadcasts (id, kind, title, body, link, role, created_at, created_by)
     SELECT ${S}.oid('e2', to_timestamp(${ctx.now} - g * ${every}), g), 'broadcast', 'Community news #' || g,
            'What changed in the community this week, and what comes next.', CASE WHEN g % 2 = 0 THEN '/faq' END,
            CASE WHEN g % 5 = 0 THEN ${lit('creator')} END, to_timestamp(${ctx.now} - g * ${every}), '${ctx.adminId}'
       FROM generate_series(1, ${count}) g`,
  );
  await conn.query(
    `INSERT INTO notification_reads (user_id, broadcasts_read_until)
     SELECT DISTINCT user_id, ${ts(ctx.now - READ_AFTER_SECONDS)} FROM notifications WHERE read_at IS NOT NULL`,
  );
}
