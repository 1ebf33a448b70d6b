/**
 * SQL of withdrawal addresses and the "allowed addresses only" switch (DESIGN §11.2). An address's state
 * and the switch are read against the database's clock, so every replica tells them the same.
 * Reads other modules' tables: `security_holds` (the mfa module's): a member's security hold, read with
 * the switch and the addresses in the withdrawal batch's one statement (`findWithdrawRules`).
 */
import type { WithdrawAddressState } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryNamed, type Tx } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { pgArray } from '../../db/pg-array.ts';
import { withdrawAddresses } from '../../db/schema/index.ts';
import { newObjectId } from '../../lib/ids.ts';

/** The advisory lock namespace of a member's withdrawal addresses (`lockMemberAddresses`). */
const ADDRESSES_LOCK_NAMESPACE = 0x57ad;

/** A saved address as the service shows it; `state` from `active_from` and now. */
export interface AddressRow {
  id: string;
  currencyId: number;
  walletAddress: string;
  label: string;
  state: WithdrawAddressState;
  activeFrom: Date | null;
  createdAt: Date;
}

/** The columns of `AddressRow`, from `withdraw_addresses a`. */
const ADDRESS_COLUMNS = sql`a.id, a.currency_id AS "currencyId", a.wallet_address AS "walletAddress", a.label,
  CASE WHEN a.active_from IS NULL THEN 'unconfirmed' WHEN a.active_from > now() THEN 'waiting' ELSE 'active' END
    AS state,
  a.active_from AS "activeFrom", a.created_at AS "createdAt"`;

interface RawAddress extends Record<string, unknown> {
  id: string;
  currencyId: number;
  walletAddress: string;
  label: string;
  state: WithdrawAddressState;
  activeFrom: string | Date | null;
  createdAt: string | Date;
}

function toAddressRow(r: RawAddress): AddressRow {
  return {
    id: r.id,
    currencyId: Number(r.currencyId),
    walletAddress: r.walletAddress,
    label: r.label,
    state: r.state,
    activeFrom: r.activeFrom === null ? null : new Date(r.activeFrom),
    createdAt: new Date(r.createdAt),
  };
}

/** A member's addresses, newest first (index `withdraw_addresses_user_created`). */
export async function listAddresses(db: DbOrTx, userId: string): Promise<AddressRow[]> {
  const res = await db.execute<RawAddress>(
    sql`SELECT ${ADDRESS_COLUMNS} FROM withdraw_addresses a WHERE a.user_id = ${userId}
        ORDER BY a.created_at DESC, a.id DESC`,
  );
  return res.rows.map(toAddressRow);
}

/**
 * Takes the transaction's advisory lock of a member's addresses, so two additions at once count and
 * insert one after the other (the most a member keeps holds on any replica).
 */
export async function lockMemberAddresses(tx: Tx, userId: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${ADDRESSES_LOCK_NAMESPACE}, hashtext(${userId}))`);
}

/**
 * Saves an unconfirmed address with the SHA-256 of its link's token, valid until `tokenExpiresAt`. Null
 * when the member already keeps this address for this currency (the unique index); the caller's
 * transaction is then aborted and must end.
 */
export async function insertAddress(
  tx: Tx,
  values: {
    userId: string;
    currencyId: number;
    walletAddress: string;
    label: string;
    tokenHash: string;
    tokenExpiresAt: Date;
  },
): Promise<AddressRow | null> {
  const id = newObjectId();
  try {
    await tx.insert(withdrawAddresses).values({
      id,
      userId: values.userId,
      currencyId: values.currencyId,
      walletAddress: values.walletAddress,
      label: values.label,
      confirmTokenHash: values.tokenHash,
      tokenExpiresAt: values.tokenExpiresAt,
    });
  } catch (err) {
    if (isUniqueViolation(err)) return null;
    throw err;
  }
  const res = await tx.execute<RawAddress>(sql`SELECT ${ADDRESS_COLUMNS} FROM withdraw_addresses a WHERE a.id = ${id}`);
  const row = res.rows[0];
  if (!row) throw new Error(`withdrawal address ${id} was not read back`);
  return toAddressRow(row);
}

/**
 * Confirms the address whose link's token hashes to `tokenHash`, once, in one statement: unexpired and
 * unconfirmed, it becomes active `holdHours` from now and its token is cleared. Null for an unknown, used
 * or expired token.
 */
export async function confirmAddress(
  db: DbOrTx,
  tokenHash: string,
  holdHours: number,
): Promise<(AddressRow & { userId: string }) | null> {
  const res = await db.execute<RawAddress & { userId: string }>(sql`
    WITH confirmed AS (
      UPDATE withdraw_addresses
         SET active_from = now() + make_interval(hours => ${holdHours}::int),
             confirm_token_hash = NULL, token_expires_at = NULL
       WHERE confirm_token_hash = ${tokenHash} AND token_expires_at > now() AND active_from IS NULL
      RETURNING *)
    SELECT ${ADDRESS_COLUMNS}, a.user_id AS "userId" FROM confirmed a`);
  const row = res.rows[0];
  return row ? { ...toAddressRow(row), userId: row.userId } : null;
}

/** Removes a member's address by id; its label, or null when the member has no such address. */
export async function deleteAddress(db: DbOrTx, userId: string, id: string): Promise<{ label: string } | null> {
  const res = await db.execute<{ label: string }>(
    sql`DELETE FROM withdraw_addresses WHERE id = ${id} AND user_id = ${userId} RETURNING label`,
  );
  return res.rows[0] ?? null;
}

/**
 * A member's switch as it stands now: `on` while it is set and its turning off (`offFrom`) has not come;
 * `offFrom` only while it is still to come.
 */
export async function findAllowList(db: DbOrTx, userId: string): Promise<{ on: boolean; offFrom: Date | null }> {
  const res = await db.execute<{ is_on: boolean; off_from: string | Date | null }>(sql`
    SELECT ${switchOn(sql`l`)} AS is_on, CASE WHEN l.off_from > now() THEN l.off_from END AS off_from
      FROM withdraw_allow_lists l WHERE l.user_id = ${userId}`);
  const row = res.rows[0];
  if (!row) return { on: false, offFrom: null };
  return { on: row.is_on, offFrom: row.off_from === null ? null : new Date(row.off_from) };
}

/** Whether the switch of the `withdraw_allow_lists` row `l` is on now (false when there is no row). */
function switchOn(l: SQL): SQL {
  return sql`coalesce(${l}.allow_list_only AND (${l}.off_from IS NULL OR ${l}.off_from > now()), false)`;
}

/** Turns a member's switch on at once (a pending turning off is called off). */
export async function setAllowListOn(db: DbOrTx, userId: string): Promise<void> {
  await db.execute(sql`
    INSERT INTO withdraw_allow_lists (user_id, allow_list_only, off_from) VALUES (${userId}, true, NULL)
    ON CONFLICT (user_id) DO UPDATE SET allow_list_only = true, off_from = NULL`);
}

/**
 * Turns a member's switch off `holdHours` from now, when it is on with no turning off pending, in one
 * conditional statement; false when there was nothing to change.
 */
export async function scheduleAllowListOff(db: DbOrTx, userId: string, holdHours: number): Promise<boolean> {
  const res = await db.execute(sql`
    UPDATE withdraw_allow_lists SET off_from = now() + make_interval(hours => ${holdHours}::int)
     WHERE user_id = ${userId} AND allow_list_only AND off_from IS NULL`);
  return (res.rowCount ?? 0) > 0;
}

/** What `withdraw` checks of one member (DESIGN §11.2): the switch, their active addresses, their security hold. */
export interface WithdrawRulesRow {
  allowListOnly: boolean;
  /** `currencyId:walletAddress` of each active address of the batch's currencies (read only with the switch on). */
  active: Set<string>;
  heldUntil: Date | null;
}

/** The key of an address in `WithdrawRulesRow.active`. */
export function addressKey(currencyId: number, walletAddress: string): string {
  return `${currencyId}:${walletAddress}`;
}

/**
 * The withdrawal rules of `userIds` for `currencyIds`, by member id, in one statement for a whole batch
 * (DESIGN §9: never one per withdrawal): each member's switch, their active addresses of those currencies
 * when the switch is on, and the end of their security hold while it lasts.
 */
export async function findWithdrawRules(
  tx: Tx,
  userIds: readonly string[],
  currencyIds: readonly number[],
): Promise<Map<string, WithdrawRulesRow>> {
  const rows = await queryNamed<{
    user_id: string;
    allow_list_only: boolean;
    held_until: string | Date | null;
    active: Array<{ c: number; w: string }> | null;
  }>(
    tx,
    'settlements_withdraw_rules',
    sql`
    SELECT u.id AS user_id, ${switchOn(sql`l`)} AS allow_list_only, h.until AS held_until,
           CASE WHEN ${switchOn(sql`l`)} THEN
             (SELECT json_agg(json_build_object('c', a.currency_id, 'w', a.wallet_address))
                FROM withdraw_addresses a
               WHERE a.user_id = u.id AND a.currency_id = ANY(${pgArray([...currencyIds])}::int[])
                 AND a.active_from <= now())
           END AS active
      FROM unnest(${pgArray([...userIds])}::bpchar[]) AS u(id)
      LEFT JOIN withdraw_allow_lists l ON l.user_id = u.id
      LEFT JOIN security_holds h ON h.user_id = u.id AND h.until > now()`,
  );
  return new Map(
    rows.map((r) => [
      r.user_id,
      {
        allowListOnly: r.allow_list_only,
        active: new Set((r.active ?? []).map((a) => addressKey(Number(a.c), a.w))),
        heldUntil: r.held_until === null ? null : new Date(r.held_until),
      },
    ]),
  );
}
