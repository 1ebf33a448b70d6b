/**
 * SQL of a member's account export (DESIGN §11.6): each part of the account's own data as JSON rows built
 * by PostgreSQL (amounts as decimal strings), read in keyset pages along the member's own indexes, so an
 * export of any size holds one page in memory.
 * Reads other modules' tables: `users` (the accounts module's: the profile, and the nicknames of the
 * other party of a ledger row), `access_logs` (the accounts module's: sign-ins), `balances`,
 * `bank_transactions` (the ledger's: balances and history), `currencies` (the bank's: tickers),
 * `items` and `item_collections` (the items module's), `exchange_orders` (the exchange's),
 * `forge_processes` (the forge's), `checkout_transactions` (the checkout's).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';

/** A page's last row: its sort key as PostgreSQL wrote it, and its id. */
export interface ExportCursor {
  key: string;
  id: string;
}

/** One row of a part: its JSON text and its cursor. */
interface ExportRow extends Record<string, unknown> {
  json: string;
  key: string;
  id: string;
}

/** `(created_at, id)` after `after`, for a part read along a (user, created_at, id) index. */
function afterCreated(alias: string, after: ExportCursor | null): SQL {
  if (!after) return sql`true`;
  const t = sql.raw(alias);
  return sql`(${t}.created_at, ${t}.id) > (${after.key}::timestamptz, ${after.id})`;
}

/** The SQL of each part, one page of `limit` rows after `after`, oldest first. */
const PARTS: Record<string, (userId: string, after: ExportCursor | null, limit: number) => SQL> = {
  balances: (userId, after, limit) => sql`
    SELECT json_build_object('currencyId', b.currency_id, 'ticker', c.ticker, 'amount', b.amount::text)::text AS json,
           b.currency_id::text AS key, b.currency_id::text AS id
      FROM balances b JOIN currencies c ON c.currency_id = b.currency_id
     WHERE b.user_id = ${userId} ${after ? sql`AND b.currency_id > ${after.key}::int` : sql``}
     ORDER BY b.currency_id LIMIT ${limit}`,
  history: (userId, after, limit) => {
    const side = (col: 'sender_id' | 'recipient_id', extra: SQL) => sql`
      (SELECT t.* FROM bank_transactions t
        WHERE t.${sql.raw(col)} = ${userId} AND ${extra} AND ${afterCreated('t', after)}
        ORDER BY t.created_at, t.id LIMIT ${limit})`;
    return sql`
      SELECT json_build_object('id', t.id, 'createdAt', t.created_at, 'category', t.category,
               'currencyId', t.currency_id, 'amount', t.amount::text, 'sender', s.nickname,
               'recipient', r.nickname, 'note', t.note, 'reference', t.reference)::text AS json,
             t.created_at::text AS key, t.id
        FROM (${side('sender_id', sql`true`)}
              UNION ALL ${side('recipient_id', sql`t.sender_id IS DISTINCT FROM ${userId}`)}) t
        LEFT JOIN users s ON s.id = t.sender_id
        LEFT JOIN users r ON r.id = t.recipient_id
       ORDER BY t.created_at, t.id LIMIT ${limit}`;
  },
  items: (userId, after, limit) => sql`
    SELECT json_build_object('id', i.id, 'name', i.name, 'description', i.description, 'imgUrl', i.img_url,
             'collection', c.name, 'metadata', i.metadata, 'createdAt', i.created_at)::text AS json,
           i.created_at::text AS key, i.id
      FROM items i JOIN item_collections c ON c.id = i.collection_id
     WHERE i.owner_id = ${userId} AND ${afterCreated('i', after)}
     ORDER BY i.created_at, i.id LIMIT ${limit}`,
  orders: (userId, after, limit) => sql`
    SELECT json_build_object('id', o.id, 'pairId', o.pair_id, 'side', CASE WHEN o.buy_side THEN 'buy' ELSE 'sell' END,
             'price', o.price::text, 'amount', o.initial_amount::text, 'filled', o.filled_amount::text,
             'state', o.state, 'createdAt', o.created_at)::text AS json,
           o.seq::text AS key, o.id
      FROM exchange_orders o
     WHERE o.user_id = ${userId} ${after ? sql`AND o.seq > ${after.key}::bigint` : sql``}
     ORDER BY o.seq LIMIT ${limit}`,
  forgeProcesses: (userId, after, limit) => sql`
    SELECT json_build_object('id', f.id, 'recipe', f.recipe_name, 'inputCurrencyId', f.input_currency_id,
             'inputAmount', f.input_amount::text, 'outputCurrencyId', f.output_currency_id,
             'outputAmount', f.output_amount::text, 'quantity', f.quantity, 'state', f.state,
             'createdAt', f.created_at, 'finishDate', f.finish_date, 'endedAt', f.ended_at)::text AS json,
           f.created_at::text AS key, f.id
      FROM forge_processes f
     WHERE f.user_id = ${userId} AND ${afterCreated('f', after)}
     ORDER BY f.created_at, f.id LIMIT ${limit}`,
  checkouts: (userId, after, limit) => sql`
    SELECT json_build_object('id', k.id, 'package', k.package_name, 'provider', k.provider_id, 'state', k.state,
             'cost', k.cost::text, 'amount', k.amount::text, 'credited', k.credited::text,
             'createdAt', k.created_at)::text AS json,
           k.created_at::text AS key, k.id
      FROM checkout_transactions k
     WHERE k.user_id = ${userId} AND ${afterCreated('k', after)}
     ORDER BY k.created_at, k.id LIMIT ${limit}`,
  sessions: (userId, after, limit) => sql`
    SELECT json_build_object('id', s.id, 'device', s.device, 'address', s.address, 'secondFactor', s.second_factor,
             'createdAt', s.created_at, 'lastSeenAt', s.last_seen_at, 'expiresAt', s.expires_at,
             'endedAt', s.ended_at)::text AS json,
           s.created_at::text AS key, s.id
      FROM user_sessions s
     WHERE s.user_id = ${userId} AND ${afterCreated('s', after)}
     ORDER BY s.created_at, s.id LIMIT ${limit}`,
  signIns: (userId, after, limit) => sql`
    SELECT json_build_object('createdAt', a.created_at, 'address', a.address, 'loginType', a.login_type)::text AS json,
           a.created_at::text AS key, a.id
      FROM access_logs a
     WHERE a.user_id = ${userId} AND ${afterCreated('a', after)}
     ORDER BY a.created_at, a.id LIMIT ${limit}`,
};

/** The parts of an export, in the file's order. */
export const EXPORT_PARTS = Object.keys(PARTS);

/** One page of `part` for `userId` after `after` (null: from the start), oldest first. */
export async function exportPage(
  db: DbOrTx,
  part: string,
  userId: string,
  after: ExportCursor | null,
  limit: number,
): Promise<ExportRow[]> {
  const query = PARTS[part];
  if (!query) throw new Error(`Unknown export part ${part}`);
  return (await db.execute<ExportRow>(query(userId, after, limit))).rows;
}

/** The account's profile as JSON text (no password hash, no token version), or null when it is gone. */
export async function exportProfile(db: DbOrTx, userId: string): Promise<string | null> {
  const res = await db.execute<{ json: string }>(sql`
    SELECT json_build_object('id', u.id, 'nickname', u.nickname, 'email', u.email, 'emailVerified',
             u.is_email_verified, 'wallet', u.primary_wallet, 'role', u.role, 'private', u.is_anonymous,
             'fame', u.fame, 'createdAt', u.created_at)::text AS json
      FROM users u WHERE u.id = ${userId}`);
  return res.rows[0]?.json ?? null;
}
