/**
 * SQL of a member's portfolio (DESIGN §11.4 `portfolio`): the pairs' last traded prices, and in one
 * statement (one snapshot) what the member holds now and how their balances moved day by day since a
 * given midnight. Only the member's own rows and each pair's newest trade are read, along indexes:
 * `balances`' primary key (user_id first), `exchange_orders_user_state`, the ledger's party indexes
 * `bank_tx_recipient` and `bank_tx_sender` (index-only: currency and amount are INCLUDEd), and
 * `exchange_trades_pair` (the newest seq of a pair).
 * Reads other modules' tables: `balances` and `bank_transactions` (the ledger's: the member's balances and
 * their own rows of the window), and `currencies` (the bank's: each currency's precision).
 */
import { type Amount, fromNumeric } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';

/** A pair that has traded, with its newest trade: `price` sellCurrency per buyCurrency, `seq` its order. */
export interface PricedPair {
  id: string;
  buyCurrency: number;
  sellCurrency: number;
  price: Amount;
  seq: number;
}

/**
 * Every live, visible pair that has traded, with its last trade's price (one probe of
 * `exchange_trades_pair` a pair, newest seq first).
 */
export async function findPricedPairs(db: DbOrTx): Promise<PricedPair[]> {
  const res = await db.execute<{ id: string; buy: number; sell: number; price: string; seq: string }>(sql`
    SELECT p.id, p.buy_currency AS buy, p.sell_currency AS sell, t.price::text AS price, t.seq::text AS seq
      FROM exchange_pairs p
      CROSS JOIN LATERAL (SELECT x.price, x.seq FROM exchange_trades x WHERE x.pair_id = p.id
                          ORDER BY x.seq DESC LIMIT 1) t
     WHERE p.deleted_at IS NULL AND p.visible
     ORDER BY p.id`);
  return res.rows.map((r) => ({
    id: r.id,
    buyCurrency: Number(r.buy),
    sellCurrency: Number(r.sell),
    price: fromNumeric(String(r.price)),
    seq: Number(r.seq),
  }));
}

/** A currency's precision, by id (every currency: a short table). */
export async function findPrecisions(db: DbOrTx): Promise<Map<number, number>> {
  const res = await db.execute<{ id: number; precision: number }>(
    sql`SELECT currency_id AS id, precision FROM currencies`,
  );
  return new Map(res.rows.map((r) => [Number(r.id), Number(r.precision)]));
}

/** What a member holds now and how their balances moved per day (see `findMemberHoldings`). */
export interface MemberHoldings {
  /** currencyId -> balance now. */
  balances: Map<number, Amount>;
  /** currencyId -> escrow held by the member's open orders now. */
  escrow: Map<number, Amount>;
  /** The net change of each balance per UTC day on or after `since` (YYYY-MM-DD -> currencyId -> change). */
  moves: Map<string, Map<number, Amount>>;
}

/**
 * The member's balances and the escrow of their open and untriggered stop orders (states 1 and 5: the
 * states that hold escrow, in the currency the order pays with) now, and the net of their own ledger rows per UTC day and
 * currency from `since` on (credits less debits), all in one statement so they agree.
 */
export async function findMemberHoldings(db: DbOrTx, userId: string, since: Date): Promise<MemberHoldings> {
  const from = since.toISOString();
  const res = await db.execute<{ kind: string; currency: number; day: string | null; amount: string }>(sql`
    SELECT 'balance' AS kind, b.currency_id AS currency, NULL AS day, b.amount::text AS amount
      FROM balances b WHERE b.user_id = ${userId} AND b.amount > 0
    UNION ALL
    SELECT 'escrow', CASE WHEN o.buy_side THEN p.sell_currency ELSE p.buy_currency END, NULL,
           sum(o.escrow_remaining)::text
      FROM exchange_orders o JOIN exchange_pairs p ON p.id = o.pair_id
     WHERE o.user_id = ${userId} AND o.state IN (1, 5) AND o.escrow_remaining > 0
     GROUP BY 2
    UNION ALL
    SELECT 'move', m.currency_id, to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), sum(m.delta)::text
      FROM (SELECT t.currency_id, t.created_at, t.amount AS delta FROM bank_transactions t
             WHERE t.recipient_id = ${userId} AND t.created_at >= ${from}::timestamptz
            UNION ALL
            SELECT t.currency_id, t.created_at, -t.amount FROM bank_transactions t
             WHERE t.sender_id = ${userId} AND t.created_at >= ${from}::timestamptz) m
     GROUP BY 2, 3`);
  const out: MemberHoldings = { balances: new Map(), escrow: new Map(), moves: new Map() };
  for (const r of res.rows) {
    const currency = Number(r.currency);
    const amount = fromNumeric(String(r.amount));
    if (r.kind === 'balance') out.balances.set(currency, amount);
    else if (r.kind === 'escrow') out.escrow.set(currency, amount);
    else {
      const day = out.moves.get(String(r.day)) ?? new Map<number, Amount>();
      day.set(currency, amount);
      out.moves.set(String(r.day), day);
    }
  }
  return out;
}
