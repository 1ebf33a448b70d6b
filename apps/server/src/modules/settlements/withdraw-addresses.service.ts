/**
 * Withdrawal addresses and the "allowed addresses only" switch (DESIGN §11.2). A member saves an address
 * for a currency; a mailed link (24 hours, single use, stored as its SHA-256) confirms it, and withdrawals
 * may go to it `WITHDRAW_ADDRESS_HOLD_HOURS` later. With the switch on, `withdraw` goes only to an active
 * address; the switch turns on at once and off only after the same hold, so whoever takes over a session
 * cannot send money to an address of theirs before the owner hears of it. The security hold (the mfa
 * module's) pauses withdrawals after a password reset, an e-mail change or two-factor turned off.
 */
import {
  type AddWithdrawAddressInput,
  AppError,
  MAX_WITHDRAW_ADDRESSES,
  MESSAGES,
  type WithdrawAddress,
  type WithdrawAddressesResponse,
  type WithdrawAddressResponse,
} from '@starlight/shared';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { FailureCounter } from '../../lib/failure-counter.ts';
import { hashMailToken, type Mailer, mayMail, newMailToken } from '../../lib/mailer.ts';
import { findUserById, findUserByNickname } from '../accounts/accounts.public.ts';
import { requireCurrency } from '../bank/currencies.service.ts';
import { type MfaDeps, requireStepUp, withdrawalHolds } from '../mfa/mfa.public.ts';
import { withdrawAddressMail } from './withdraw-addresses.mail.ts';
import {
  type AddressRow,
  addressKey,
  confirmAddress,
  deleteAddress,
  findAllowList,
  findWithdrawRules,
  insertAddress,
  listAddresses,
  lockMemberAddresses,
  scheduleAllowListOff,
  setAllowListOn,
} from './withdraw-addresses.queries.ts';

/** What the addresses' routes need (built by settlements.module.ts from the configuration). */
export interface WithdrawAddressesDeps {
  db: Db;
  /** The step-up adding an address and turning the switch off ask for (DESIGN §11.1). */
  mfa: MfaDeps;
  mailer: Mailer;
  /** The mail counter shared with the site's other mails (Redis when there is one). */
  mailsSent: FailureCounter;
  maxMailsPerRecipient: number;
  publicUrl: string;
  /** `WITHDRAW_ADDRESS_HOLD_HOURS`: how long a confirmed address, and the switch turned off, wait. */
  holdHours: number;
  log: { error(obj: object, msg: string): void };
}

/** A confirmation link lasts 24 hours (milliseconds). */
const TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** The web page a confirmation link opens: `PUBLIC_URL/withdrawaddress/{token}`. */
const LINK_PAGE = 'withdrawaddress';

/**
 * A time as the messages show it, in UTC to the minute, rounded up so that the time shown has come when
 * the member tries again: `2026-12-03 16:40 UTC`.
 */
export function utcMinuteText(at: Date): string {
  const up = new Date(Math.ceil(at.getTime() / 60_000) * 60_000);
  return `${up.toISOString().replace('T', ' ').slice(0, 16)} UTC`;
}

/** An address as the wire shows it. */
function toWire(r: AddressRow): WithdrawAddress {
  return {
    _id: r.id,
    currencyId: r.currencyId,
    walletAddress: r.walletAddress,
    label: r.label,
    state: r.state,
    activeFrom: r.activeFrom?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
  };
}

/** `n withdrawal addresses` in words. */
function countText(n: number): string {
  return `${n} withdrawal address${n === 1 ? '' : 'es'}`;
}

/** A member's list as `withdrawAddresses` answers it, with `message`. */
async function listOf(db: DbOrTx, userId: string, message: string): Promise<WithdrawAddressesResponse> {
  const [addresses, allowList, holds] = await Promise.all([
    listAddresses(db, userId),
    findAllowList(db, userId),
    withdrawalHolds(db, [userId]),
  ]);
  return {
    addresses: addresses.map(toWire),
    allowListOnly: allowList.on,
    allowListOffFrom: allowList.offFrom?.toISOString() ?? null,
    withdrawalsPausedUntil: holds.get(userId)?.toISOString() ?? null,
    message,
  };
}

/**
 * `withdrawAddresses {}`: the caller's addresses, newest first, with the switch as it stands now
 * (`allowListOffFrom` while a turning off waits) and the end of a security hold (`withdrawalsPausedUntil`).
 */
export async function listWithdrawAddresses(
  deps: WithdrawAddressesDeps,
  userId: string,
): Promise<WithdrawAddressesResponse> {
  const list = await listOf(deps.db, userId, '');
  return { ...list, message: `You have ${countText(list.addresses.length)}` };
}

/** Admin `getUserWithdrawAddresses {nickname}`: a member's list as they see it. 404 `User not found`. */
export async function getUserWithdrawAddresses(
  deps: WithdrawAddressesDeps,
  nickname: string,
): Promise<WithdrawAddressesResponse> {
  const target = await findUserByNickname(deps.db, nickname);
  if (!target) throw new AppError('NOT_FOUND', 'User not found');
  const list = await listOf(deps.db, target.id, '');
  return { ...list, message: `${target.nickname} has ${countText(list.addresses.length)}` };
}

/**
 * `addWithdrawAddress {currencyId, walletAddress, label, mfaCode?}` (DESIGN §11.2): saves the address
 * unconfirmed and mails the account's e-mail a link that confirms it (`PUBLIC_URL/withdrawaddress/{token}`,
 * 24 hours), after the response; a failure to send is only logged. Refused, nothing is saved: 404
 * `Currency not found`; 409 `{ticker} cannot be withdrawn`, an account without an e-mail, the most
 * addresses kept (`MAX_WITHDRAW_ADDRESSES`) or one already kept; the step-up's 403/400 (checked last);
 * 429 past the hourly mails to the address (`RATE_LIMIT_MAILS`).
 */
export async function addWithdrawAddress(
  deps: WithdrawAddressesDeps,
  member: { id: string },
  input: AddWithdrawAddressInput,
): Promise<WithdrawAddressResponse> {
  const currency = await requireCurrency(deps.db, input.currencyId);
  if (!currency.canWithdraw) throw new AppError('CONFLICT', `${currency.ticker} cannot be withdrawn`);
  const account = await findUserById(deps.db, member.id);
  if (!account) throw new AppError('NOT_FOUND', 'User not found');
  const to = account.email;
  if (!to) throw new AppError('CONFLICT', 'Add an e-mail address to your account to confirm withdrawal addresses');
  const kept = await listAddresses(deps.db, member.id);
  const tooMany = () => new AppError('CONFLICT', `You can keep at most ${MAX_WITHDRAW_ADDRESSES} withdrawal addresses`);
  const duplicate = () => new AppError('CONFLICT', 'This address is already in your withdrawal addresses');
  if (kept.length >= MAX_WITHDRAW_ADDRESSES) throw tooMany();
  const same = (r: AddressRow) => r.currencyId === currency.currencyId && r.walletAddress === input.walletAddress;
  if (kept.some(same)) throw duplicate();
  // Step-up last of the checks, so a code is not used up by an address refused for another reason.
  await requireStepUp(deps.mfa, member, input.mfaCode);
  if (!(await mayMail(deps.mailsSent, deps.maxMailsPerRecipient, 'withdraw-address', to))) {
    throw new AppError('RATE_LIMITED', 'Too many confirmation mails this hour; try again later');
  }
  const { token, hash } = newMailToken();
  const address = await inTransaction(deps.db, async (tx) => {
    // Two additions at once count one after the other.
    await lockMemberAddresses(tx, member.id);
    if ((await listAddresses(tx, member.id)).length >= MAX_WITHDRAW_ADDRESSES) throw tooMany();
    const row = await insertAddress(tx, {
      userId: member.id,
      currencyId: currency.currencyId,
      walletAddress: input.walletAddress,
      label: input.label,
      tokenHash: hash,
      tokenExpiresAt: new Date(Date.now() + TOKEN_LIFETIME_MS),
    });
    if (!row) throw duplicate();
    return row;
  });
  const link = `${deps.publicUrl.replace(/\/$/, '')}/${LINK_PAGE}/${token}`;
  const facts = {
    nickname: account.nickname,
    ticker: currency.ticker,
    walletAddress: address.walletAddress,
    label: address.label,
    holdHours: deps.holdHours,
  };
  deps.mailer
    .send(withdrawAddressMail(to, facts, link))
    .catch((err: unknown) => deps.log.error({ err, to }, 'withdrawal address link not sent'));
  return { address: toWire(address), message: 'We sent a link to your e-mail to confirm this address' };
}

/**
 * `confirmWithdrawAddress {token}` (DESIGN §11.2): confirms the address of a mailed link, once; it becomes
 * active `WITHDRAW_ADDRESS_HOLD_HOURS` from now. 400 `MESSAGES.invalidLink` for an unknown, used or
 * expired link.
 */
export async function confirmWithdrawAddress(
  deps: WithdrawAddressesDeps,
  token: string,
): Promise<WithdrawAddressResponse> {
  const row = await confirmAddress(deps.db, hashMailToken(token), deps.holdHours);
  if (!row) throw new AppError('VALIDATION', MESSAGES.invalidLink);
  const when = row.state === 'active' || !row.activeFrom ? 'now' : `from ${utcMinuteText(row.activeFrom)}`;
  return {
    address: toWire(row),
    message: `Withdrawal address ${row.label} is confirmed: withdrawals can go to it ${when}`,
  };
}

/** `removeWithdrawAddress {_id}`: removes one of the caller's addresses. 404 for another's or an unknown one. */
export async function removeWithdrawAddress(
  deps: WithdrawAddressesDeps,
  userId: string,
  id: string,
): Promise<{ message: string }> {
  const removed = await deleteAddress(deps.db, userId, id);
  if (!removed) throw new AppError('NOT_FOUND', 'Withdrawal address not found');
  return { message: `Withdrawal address ${removed.label} removed` };
}

/**
 * `setAllowListOnly {on, mfaCode?}` (DESIGN §11.2): on takes effect at once (calling off a pending turning
 * off); off needs the step-up and takes effect `WITHDRAW_ADDRESS_HOLD_HOURS` from now, the switch staying on
 * until then. Off when it is off or already turning off changes nothing (and asks for no code). Answers
 * the list as `withdrawAddresses` does.
 */
export async function setAllowListOnly(
  deps: WithdrawAddressesDeps,
  member: { id: string },
  input: { on: boolean; mfaCode?: string | undefined },
): Promise<WithdrawAddressesResponse> {
  const onlyListed = 'Withdrawals go only to your active withdrawal addresses';
  if (input.on) {
    await setAllowListOn(deps.db, member.id);
    return listOf(deps.db, member.id, onlyListed);
  }
  const now = await findAllowList(deps.db, member.id);
  if (now.on && now.offFrom === null) {
    await requireStepUp(deps.mfa, member, input.mfaCode);
    await scheduleAllowListOff(deps.db, member.id, deps.holdHours);
  }
  const list = await listOf(deps.db, member.id, '');
  const message = list.allowListOffFrom
    ? `${onlyListed} until ${utcMinuteText(new Date(list.allowListOffFrom))}`
    : 'Withdrawals can go to any address';
  return { ...list, message };
}

/**
 * The withdrawal rules of a batch (DESIGN §11.2), read in one statement for all its members and
 * currencies: returns the check of one withdrawal, which throws 409 `Withdrawals are paused until {date}
 * after a change to your account's security` during a security hold, and 409 `This address is not in your
 * withdrawal addresses` when the member's switch is on and the address (lowercased, as the wire makes it)
 * is not active for the currency.
 */
export async function withdrawRulesOf(
  tx: Tx,
  jobs: ReadonlyArray<{ member: { id: string }; input: { currencyId: number } }>,
): Promise<(userId: string, currencyId: number, walletAddress: string) => void> {
  const rules = await findWithdrawRules(
    tx,
    [...new Set(jobs.map((j) => j.member.id))],
    [...new Set(jobs.map((j) => j.input.currencyId))],
  );
  return (userId, currencyId, walletAddress) => {
    const r = rules.get(userId);
    if (!r) return;
    if (r.heldUntil) {
      throw new AppError(
        'CONFLICT',
        `Withdrawals are paused until ${utcMinuteText(r.heldUntil)} after a change to your account's security`,
      );
    }
    if (r.allowListOnly && !r.active.has(addressKey(currencyId, walletAddress))) {
      throw new AppError('CONFLICT', 'This address is not in your withdrawal addresses');
    }
  };
}
