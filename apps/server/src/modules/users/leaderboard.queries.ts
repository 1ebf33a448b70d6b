/** SQL of the leaderboard (DESIGN §6): one currency's holders ranked, in one statement. */
import { sql } from 'drizzle-orm';
import { type DbOrTx, queryNamed } from '../../db/client.ts';

/** A ranked row: `amount` as numeric text; `mine` marks the viewer's own row. */
export interface RankedRow extends Record<string, unknown> {
  rank: number;
  nickname: string;
  amount: string;
  mine: boolean;
}

/**
 * The holders of `currencyId` with a positive balance (active members only, no system account), ranked by amount, highest
 * first, ties by member id, as the rows ranked 1 to `top` and those within `spread` ranks of the viewer
 * (`viewerId`, null when signed out), in rank order. A private member (`isAnonymous`) is named
 * `Anonymous`, except in the viewer's own row. One statement over the currency's balance rows: the
 * `balances_currency` index finds them; there is deliberately no index on `amount`, which every posting
 * changes (it would end HOT updates of balances, DESIGN §9).
 */
export async function findRanked(
  db: DbOrTx,
  currencyId: number,
  viewerId: string | null,
  top: number,
  spread: number,
): Promise<RankedRow[]> {
  return queryNamed<RankedRow>(
    db,
    'leaderboard_ranked',
    sql`
    WITH ranked AS (
      SELECT b.user_id, b.amount, u.nickname, u.is_anonymous,
             row_number() OVER (ORDER BY b.amount DESC, b.user_id) AS rank
      FROM balances b JOIN users u ON u.id = b.user_id
      WHERE b.currency_id = ${currencyId}::int AND b.amount > 0 AND u.is_active AND NOT u.is_system),
    me AS (SELECT rank FROM ranked WHERE user_id = ${viewerId}::text)
    SELECT r.rank::int AS rank, r.amount::text AS amount, (r.user_id = ${viewerId}::text) IS TRUE AS mine,
           CASE WHEN r.is_anonymous AND (r.user_id = ${viewerId}::text) IS NOT TRUE THEN 'Anonymous' ELSE r.nickname END
             AS nickname
    FROM ranked r
    WHERE r.rank <= ${top}::int
       OR r.rank BETWEEN (SELECT rank FROM me) - ${spread}::int AND (SELECT rank FROM me) + ${spread}::int
    ORDER BY r.rank`,
  );
}
