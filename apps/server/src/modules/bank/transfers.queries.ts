/**
 * SQL of transfers (DESIGN §4, §9): a batch's context with its locked balances, the posting, holders.
 * Reads other modules' tables: `users` (recipients and tax collectors by nickname) and `balances` (through the ledger's `lockBalances`, and the holders read back), all in the batch's one statement (DESIGN §9).
 */
import { type Amount, fromNumeric, type UserMfa } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { pgArray } from '../../db/pg-array.ts';
import type { LiveChanges } from '../../lib/live-changes.ts';
import { type BalanceText, userMfaColumn } from '../accounts/accounts.public.ts';
import {
  type BatchBalances,
  balancesAfterPosting,
  type Entry,
  lockBalances,
  type PostAlong,
  postEntries,
} from '../ledger/ledger.public.ts';
import type { CurrencyRow } from './currencies.queries.ts';

/** The currency fields a transfer or a withdrawal checks (DESIGN §4, §8). */
export type TransferCurrency = Pick<
  CurrencyRow,
  | 'currencyId'
  | 'ticker'
  | 'precision'
  | 'canTransfer'
  | 'canWithdraw'
  | 'canMint'
  | 'canBurn'
  | 'isFrozen'
  | 'frozenNote'
  | 'transferTax'
  | 'withdrawTax'
  | 'taxCollector'
>;

/** A transfer's currency with its tax collector's id (null: none, the tax is burned). */
export interface TransferCurrencyContext extends TransferCurrency {
  collectorId: string | null;
}

/** What a batch of transfers reads before it moves money (see `findTransfersContext`). */
export interface TransfersContext {
  currencies: Map<number, TransferCurrencyContext>;
  /** Recipients by lowercased nickname. */
  /** `isSystem`: an account the server keeps for itself (the chip sale's), never a member's. */
  recipients: Map<string, { id: string; nickname: string; isActive: boolean; isSystem: boolean }>;
  /** Every balance row the batch can touch, locked. */
  balances: BatchBalances;
}

/**
 * Everything a batch of transfers (or of withdrawals: no recipients; of mints and burns: no senders) needs, in one statement inside the
 * batch's transaction: the currencies `currencyIds` with their tax collectors, the recipients by nickname (case-insensitive),
 * and, through the ledger's `lockBalances`, every existing balance row the batch can touch (senders',
 * recipients' and collectors', in those currencies), locked in the global order.
 */
export async function findTransfersContext(
  tx: Tx,
  q: { currencyIds: readonly number[]; nicknames: readonly string[]; senderIds: readonly string[] },
): Promise<TransfersContext> {
  const locked = await lockBalances<{
    currencies: Array<Record<string, string | number | boolean | null>> | null;
    recipients: Array<{ id: string; nickname: string; active: boolean; system: boolean }> | null;
  }>(tx, 'bank_transfers_context', {
    ctes: sql`
    c AS MATERIALIZED (
      SELECT c.currency_id, c.ticker, c.precision, c.can_transfer, c.can_withdraw, c.can_mint, c.can_burn,
             c.is_frozen, c.frozen_note,
             c.transfer_tax, c.withdraw_tax, c.tax_collector, tc.id AS collector_id
      FROM currencies c
      LEFT JOIN users tc ON c.tax_collector <> '' AND lower(tc.nickname) = lower(c.tax_collector)
      WHERE c.currency_id = ANY(${pgArray(q.currencyIds)}::int[])),
    r AS MATERIALIZED (
      SELECT id, nickname, is_active, is_system FROM users
      WHERE lower(nickname) = ANY(${pgArray(q.nicknames.map((n) => n.toLowerCase()))}::text[]))`,
    userIds: q.senderIds,
    moreUserIds: [sql`SELECT id FROM r`, sql`SELECT collector_id FROM c`],
    moreCurrencyIds: [sql`SELECT currency_id FROM c`],
    columns: sql`
      (SELECT json_agg(json_build_object('currencyId', currency_id, 'ticker', ticker, 'precision', precision,
                 'canTransfer', can_transfer, 'canWithdraw', can_withdraw, 'canMint', can_mint,
                 'canBurn', can_burn, 'isFrozen', is_frozen,
                 'frozenNote', frozen_note, 'transferTax', transfer_tax::text, 'withdrawTax', withdraw_tax::text,
                 'taxCollector', tax_collector, 'collectorId', collector_id))
         FROM c) AS currencies,
      (SELECT json_agg(json_build_object('id', id, 'nickname', nickname, 'active', is_active, 'system', is_system)) FROM r) AS recipients`,
  });
  if (!locked) throw new Error('the transfers context returned no row');
  const { row, balances } = locked;
  return {
    currencies: new Map(
      (row.currencies ?? []).map((c) => [
        Number(c.currencyId),
        {
          currencyId: Number(c.currencyId),
          ticker: String(c.ticker),
          precision: Number(c.precision),
          canTransfer: c.canTransfer === true,
          canWithdraw: c.canWithdraw === true,
          canMint: c.canMint === true,
          canBurn: c.canBurn === true,
          isFrozen: c.isFrozen === true,
          frozenNote: String(c.frozenNote ?? ''),
          transferTax: String(c.transferTax),
          withdrawTax: String(c.withdrawTax),
          taxCollector: String(c.taxCollector ?? ''),
          collectorId: c.collectorId === null ? null : String(c.collectorId),
        },
      ]),
    ),
    recipients: new Map(
      (row.recipients ?? []).map((r) => [
        r.nickname.toLowerCase(),
        { id: r.id, nickname: r.nickname, isActive: r.active, isSystem: r.system },
      ]),
    ),
    balances,
  };
}

/** An account as a transfer reads it back: the `users` columns the wire's `User` shows. */
export interface PostedAccount {
  id: string;
  nickname: string;
  email: string | null;
  role: string;
  primaryWallet: string | null;
  isActive: boolean;
  isWalletOnly: boolean;
  isEmailVerified: boolean;
  isAnonymous: boolean;
  fame: number;
  createdAt: Date;
  updatedAt: Date;
}

/** An account as `postTransfers` reads it back, with its referrer's nickname and non-zero balances. */
export interface PostedAccountView {
  account: PostedAccount;
  referrerNickname: string | null;
  /** `User.mfa` (DESIGN §11.1), read by the accounts module's column. */
  mfa: UserMfa;
  /** `amount` as numeric text with the currency's precision, by currency id. */
  balances: BalanceText[];
}

/**
 * Posts a batch's transfer `entries` through the ledger and reads back the accounts `accountIds` in the
 * same single statement (DESIGN §9), their balances as the post left them. `along`: what else the same
 * statement writes and reads (`PostAlong`: its CTEs should write only when `(SELECT ok FROM ok)`), under
 * its own statement name. Returns each account by id (`views`) and the statement's row (`row`, with
 * `along`'s columns). Throws AppError CONFLICT `Insufficient funds` (nothing is written); Error when an
 * account does not exist.
 */
export async function postTransfers<X extends Record<string, unknown> = Record<string, never>>(
  tx: Tx,
  entries: readonly Entry[],
  accountIds: readonly string[],
  changes: LiveChanges,
  along?: PostAlong,
): Promise<{ views: Map<string, PostedAccountView>; row: X }> {
  const row = await postEntries<
    X & {
      accounts: Array<{
        account: PostedAccount;
        referrer_nickname: string | null;
        mfa: UserMfa;
        bals: BalanceText[] | null;
      }> | null;
    }
  >(tx, entries, changes, {
    name: along?.name ?? 'bank_post_transfers',
    ...(along?.ctes ? { ctes: along.ctes } : {}),
    columns: sql`
        (SELECT json_agg(json_build_object(
          'account', json_build_object('id', u.id, 'nickname', u.nickname, 'email', u.email, 'role', u.role,
            'primaryWallet', u.primary_wallet, 'isActive', u.is_active, 'isWalletOnly', u.is_wallet_only,
            'isEmailVerified', u.is_email_verified, 'isAnonymous', u.is_anonymous, 'fame', u.fame,
            'createdAt', u.created_at, 'updatedAt', u.updated_at),
          'referrer_nickname', r.nickname,
          'mfa', ${userMfaColumn(sql`u.id`)},
          'bals', ${balancesAfterPosting(sql`u.id`)}))
          FROM users u LEFT JOIN users r ON r.id = u.referrer_id
         WHERE u.id = ANY(${pgArray(accountIds)}::bpchar[])) AS accounts${along ? sql`, ${along.columns}` : sql``}`,
  });
  const views = new Map<string, PostedAccountView>();
  for (const v of row.accounts ?? []) {
    const a = v.account;
    views.set(a.id, {
      account: { ...a, createdAt: new Date(a.createdAt), updatedAt: new Date(a.updatedAt) },
      referrerNickname: v.referrer_nickname,
      mfa: v.mfa,
      balances: (v.bals ?? []).map((b) => ({
        currencyId: Number(b.currencyId),
        amount: String(b.amount),
        precision: Number(b.precision),
      })),
    });
  }
  for (const id of accountIds) if (!views.has(id)) throw new Error(`postTransfers: no account ${id}`);
  return { views, row };
}

/** Holders of a currency with a positive balance, excluding one user: `{userId, amount}`. */
export async function findHolders(
  db: DbOrTx,
  currencyId: number,
  excludeUserId: string,
): Promise<Array<{ userId: string; amount: Amount }>> {
  const res = await db.execute<{ user_id: string; amount: string }>(sql`
    SELECT b.user_id, b.amount FROM balances b JOIN users u ON u.id = b.user_id
    WHERE b.currency_id = ${currencyId} AND b.amount > 0 AND b.user_id <> ${excludeUserId} AND u.is_active
      AND NOT u.is_system
    ORDER BY b.user_id`);
  return res.rows.map((r) => ({ userId: r.user_id, amount: fromNumeric(String(r.amount)) }));
}
