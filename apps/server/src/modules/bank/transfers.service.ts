/**
 * Transfers (SPEC §4, §7 Bank; DESIGN §4): member to member with tax, admin mint and burn, and
 * distribution to a currency's holders. Every balance change goes through the ledger.
 */
import {
  ADMIN_CATEGORY,
  type Amount,
  AppError,
  type DistributeCurrencyInput,
  feeOf,
  formatAmount,
  formatAtPrecision,
  fromNumeric,
  MESSAGES,
  type MintInput,
  type P2pTransferInput,
  TX_CATEGORY,
  UNIT,
  type User as UserDto,
} from '@starlight/shared';
import type { Tx } from '../../db/client.ts';
import type { AuthUser } from '../../http/access.ts';
import { type Outcome, onlyOutcome } from '../../lib/group-commit.ts';
import type { LiveChanges } from '../../lib/live-changes.ts';
import { loadUserDto, toUserDto } from '../accounts/accounts.public.ts';
import { type Entry, postEntries } from '../ledger/ledger.public.ts';
import { insertNotificationsAlong, type NewNotification } from '../notifications/notifications.public.ts';
import { insertAdminLogs } from '../oversight/oversight.public.ts';
import { requireCurrency, requireNotFrozen, requirePrecision } from './currencies.service.ts';
import { findHolders, findTransfersContext, postTransfers } from './transfers.queries.ts';

/** One transfer: who sends what to whom (SPEC §7 p2pTransfer). */
export interface TransferJob {
  sender: AuthUser;
  input: P2pTransferInput;
}

/** What a sender gets back: the sender with fresh balances, and SPEC §8's message. */
export interface TransferResult {
  senderUser: UserDto;
  message: string;
}

/**
 * Members send currency to others by nickname (SPEC §7, DESIGN §4): a batch of transfers in the
 * caller's transaction `tx`, as if they came one after the other in the given order. One statement
 * reads the currencies, the recipients and every balance row the batch can touch (locked), each
 * transfer is checked in turn against the balances the earlier ones left, and one statement posts them
 * all and reads the senders back (DESIGN §9: a batch costs the round trips of one transfer). The sender
 * pays exactly `amount`; the tax (amount x transferTax, rounded UP to the currency's precision) goes to
 * the tax collector (burned when none) as a category 4 row. Each recipient gets a `transfer_received`
 * notification (DESIGN §11.3), written by the same statement. A refused transfer leaves no trace and does
 * not stop the others; its outcome carries the error: NOT_FOUND (currency, recipient), CONFLICT (not
 * transferable, frozen, `Insufficient funds`, an amount the tax would take whole), VALIDATION (precision,
 * self-transfer, a system account as the recipient). An accepted one answers `{senderUser, message}` (`Sent 9.90 SD to bob (tax 0.10 SD)`), the sender's balances as they
 * are after the batch. Throws (rolling back the whole batch) only on a database failure.
 */
export async function p2pTransfers(
  tx: Tx,
  jobs: readonly TransferJob[],
  changes: LiveChanges,
): Promise<Outcome<TransferResult>[]> {
  const ctx = await findTransfersContext(tx, {
    currencyIds: [...new Set(jobs.map((j) => j.input.currencyId))],
    nicknames: [...new Set(jobs.map((j) => j.input.recipientNickName))],
    senderIds: [...new Set(jobs.map((j) => j.sender.id))],
  });
  const entries: Entry[] = [];
  const accepted: Array<{ index: number; senderId: string; message: string }> = [];
  const notices: NewNotification[] = [];
  const outcomes: Array<Outcome<TransferResult> | null> = jobs.map(() => null);

  for (const [index, { sender, input }] of jobs.entries()) {
    try {
      const currency = ctx.currencies.get(input.currencyId);
      if (!currency) throw new AppError('NOT_FOUND', 'Currency not found');
      if (!currency.canTransfer) throw new AppError('CONFLICT', `${currency.ticker} cannot be transferred`);
      requireNotFrozen(currency);
      requirePrecision(input.amount, currency);
      const recipient = ctx.recipients.get(input.recipientNickName.toLowerCase());
      if (!recipient?.isActive) throw new AppError('NOT_FOUND', MESSAGES.recipientNotFound);
      if (recipient.id === sender.id) throw new AppError('VALIDATION', 'You cannot send to yourself');
      // The server's own accounts (the chip sale's) take money only through their own rules (a purchase).
      if (recipient.isSystem) {
        throw new AppError('VALIDATION', `You cannot send to ${recipient.nickname}: it is a system account`);
      }
      // The rows are locked and hold what earlier transfers of the batch left.
      if (!ctx.balances.covers(sender.id, currency.currencyId, input.amount)) {
        throw new AppError('CONFLICT', 'Insufficient funds');
      }
      const tax = feeOf(input.amount, fromNumeric(currency.transferTax), currency.precision);
      const received = (input.amount - tax) as Amount;
      if (received <= 0n) {
        throw new AppError(
          'CONFLICT',
          `Amount too small: the ${formatAmount(tax, currency.precision)} ${currency.ticker} tax would leave ${recipient.nickname} nothing`,
        );
      }
      const base = { currencyId: currency.currencyId, executorId: sender.id, senderId: sender.id };
      const mine: Entry[] = [];
      mine.push({
        ...base,
        category: TX_CATEGORY.Transfer,
        amount: received,
        recipientId: recipient.id,
        note: input.note ?? '',
      });
      if (tax > 0n) {
        mine.push({
          ...base,
          category: TX_CATEGORY.Tax,
          amount: tax,
          recipientId: currency.collectorId,
          note: `Transfer tax to ${currency.taxCollector || 'burn'}`,
        });
      }
      for (const e of mine) ctx.balances.apply(e);
      entries.push(...mine);
      const fmt = (a: Amount) => `${formatAmount(a, currency.precision)} ${currency.ticker}`;
      const taxText = tax > 0n ? ` (tax ${fmt(tax)})` : '';
      accepted.push({
        index,
        senderId: sender.id,
        message: `Sent ${fmt(received)} to ${recipient.nickname}${taxText}`,
      });
      notices.push({
        userId: recipient.id,
        kind: 'transfer_received',
        title: `You received ${fmt(received)}`,
        body: input.note ? `From ${sender.nickname}: "${input.note}"` : `From ${sender.nickname}`,
        link: '/userbank',
      });
    } catch (error) {
      outcomes[index] = { ok: false, error };
    }
  }

  if (accepted.length > 0) {
    // The recipients' notifications ride in the posting's own statement: the batch stays one round trip.
    const notified = insertNotificationsAlong(notices);
    const senders = [...new Set(accepted.map((a) => a.senderId))];
    const { views } = await postTransfers(tx, entries, senders, changes, {
      name: 'bank_post_transfers_notify',
      ...notified,
    });
    changes.touchNotifications(notified.ids);
    for (const { index, senderId, message } of accepted) {
      const v = views.get(senderId);
      if (!v) throw new Error(`sender ${senderId} was not read back`);
      outcomes[index] = {
        ok: true,
        value: { senderUser: toUserDto(v.account, v.balances, v.referrerNickname, v.mfa), message },
      };
    }
  }
  return outcomes.map((o) => o ?? { ok: false, error: new Error('transfer left without an outcome') });
}

/**
 * One transfer (SPEC §7 p2pTransfer): `p2pTransfers` with a batch of one, in the caller's transaction.
 * Answers `{senderUser, message}`; throws the transfer's error (see `p2pTransfers`).
 */
export async function p2pTransfer(
  tx: Tx,
  sender: AuthUser,
  input: TransferJob['input'],
  changes: LiveChanges,
): Promise<TransferResult> {
  return onlyOutcome(p2pTransfers(tx, [{ sender, input }], changes));
}

/** One admin mint or burn (SPEC §7): who, which way, what, from which address (for the admin log). */
export interface MintJob {
  admin: AuthUser;
  kind: 'mint' | 'burn';
  input: MintInput;
  address: string;
}

/**
 * Admin mints and burns (SPEC §7, DESIGN §4), a batch in the caller's transaction `tx` (group commit,
 * DESIGN §9), as if they came one after the other in the given order: one statement reads the
 * currencies and the members by nickname and locks their balance rows (the transfers' context), each
 * job is checked in turn against what the earlier ones left, then one statement writes the admin log
 * rows and one posts the ledger rows. Mint issues `amount` to the member (category 10), burn removes it
 * from the member (category 11); each writes an admin log row. An accepted job answers `{message}`
 * (`Minted 5.00 SN to bob`); a refused one leaves no trace and does not stop the others, its outcome
 * carrying NOT_FOUND (currency, recipient), CONFLICT (not mintable / burnable, insufficient funds for a
 * burn) or VALIDATION (precision). Throws (rolling back the whole batch) only on a database failure.
 */
export async function mintOrBurnBatch(
  tx: Tx,
  jobs: readonly MintJob[],
  changes: LiveChanges,
): Promise<Outcome<{ message: string }>[]> {
  const ctx = await findTransfersContext(tx, {
    currencyIds: [...new Set(jobs.map((j) => j.input.currencyId))],
    nicknames: [...new Set(jobs.map((j) => j.input.recipientNickName))],
    senderIds: [],
  });
  const entries: Entry[] = [];
  const logs: Parameters<typeof insertAdminLogs>[1][number][] = [];
  const outcomes = jobs.map(({ admin, kind, input, address }): Outcome<{ message: string }> => {
    try {
      const currency = ctx.currencies.get(input.currencyId);
      if (!currency) throw new AppError('NOT_FOUND', 'Currency not found');
      if (kind === 'mint' && !currency.canMint) throw new AppError('CONFLICT', `${currency.ticker} cannot be minted`);
      if (kind === 'burn' && !currency.canBurn) throw new AppError('CONFLICT', `${currency.ticker} cannot be burned`);
      requirePrecision(input.amount, currency);
      const member = ctx.recipients.get(input.recipientNickName.toLowerCase());
      if (!member) throw new AppError('NOT_FOUND', MESSAGES.recipientNotFound);
      if (kind === 'burn' && !ctx.balances.covers(member.id, currency.currencyId, input.amount)) {
        throw new AppError('CONFLICT', 'Insufficient funds');
      }
      const entry: Entry = {
        category: kind === 'mint' ? TX_CATEGORY.Mint : TX_CATEGORY.Burn,
        currencyId: currency.currencyId,
        amount: input.amount,
        executorId: admin.id,
        senderId: kind === 'mint' ? null : member.id,
        recipientId: kind === 'mint' ? member.id : null,
        note: input.note,
      };
      ctx.balances.apply(entry);
      entries.push(entry);
      const text = `${formatAmount(input.amount, currency.precision)} ${currency.ticker}`;
      const action =
        kind === 'mint' ? `Minted ${text} to ${member.nickname}` : `Burned ${text} from ${member.nickname}`;
      logs.push({
        adminId: admin.id,
        affectedUserId: member.id,
        address,
        category: kind === 'mint' ? ADMIN_CATEGORY.ManualMint : ADMIN_CATEGORY.ManualBurn,
        action: `${action}: ${input.note}`,
      });
      return { ok: true, value: { message: action } };
    } catch (error) {
      return { ok: false, error };
    }
  });
  if (entries.length > 0) {
    await insertAdminLogs(tx, logs);
    await postEntries(tx, entries, changes);
  }
  return outcomes;
}

/**
 * Admin mint or burn (SPEC §7, DESIGN §4) in the caller's transaction: `mintOrBurnBatch` with a batch of
 * one. Answers `{message}`; throws the job's error (see `mintOrBurnBatch`).
 */
export async function mintOrBurn(
  tx: Tx,
  admin: AuthUser,
  kind: 'mint' | 'burn',
  input: MintInput,
  address: string,
  changes: LiveChanges,
): Promise<{ message: string }> {
  return onlyOutcome(mintOrBurnBatch(tx, [{ admin, kind, input, address }], changes));
}

/**
 * Shares `amount` of currency A among the holders of currency B, the sender and the system accounts
 * (the chip sale's: never a member, never a recipient of a transfer) excluded, pro rata to
 * their B holdings (DESIGN §4, SPEC §4 Distribution): each share is rounded down to whole units of A
 * and the remainder stays with the sender, who pays only what was shared. Category 3 rows.
 * Throws NOT_FOUND, CONFLICT (not transferable, frozen, nobody to receive a whole unit, funds).
 */
export async function distributeCurrency(
  tx: Tx,
  sender: AuthUser,
  input: DistributeCurrencyInput,
  changes: LiveChanges,
): Promise<{ senderUser: UserDto; recipients: number; distributed: string; message: string }> {
  const currency = await requireCurrency(tx, input.currencyId);
  const target = await requireCurrency(tx, input.targetCurrencyId);
  if (!currency.canTransfer) throw new AppError('CONFLICT', `${currency.ticker} cannot be transferred`);
  requireNotFrozen(currency);
  requirePrecision(input.amount, currency);
  const holders = await findHolders(tx, target.currencyId, sender.id);
  const totalHeld = holders.reduce((s, h) => s + h.amount, 0n);
  const entries: Entry[] = [];
  let distributed = 0n;
  if (totalHeld > 0n) {
    for (const h of holders) {
      const raw = (input.amount * h.amount) / totalHeld;
      const share = raw - (raw % UNIT);
      if (share <= 0n) continue;
      distributed += share;
      entries.push({
        category: TX_CATEGORY.Transfer,
        currencyId: currency.currencyId,
        amount: share as Amount,
        executorId: sender.id,
        senderId: sender.id,
        recipientId: h.userId,
        note: input.note ?? `Distribution to ${target.ticker} holders`,
      });
    }
  }
  if (entries.length === 0) {
    throw new AppError('CONFLICT', `No ${target.ticker} holder would receive a whole ${currency.ticker}`);
  }
  await postEntries(tx, entries, changes);
  const senderUser = await loadUserDto(tx, sender.id);
  if (!senderUser) throw new AppError('NOT_FOUND', 'User not found');
  const text = `${formatAmount(distributed, currency.precision)} ${currency.ticker}`;
  return {
    senderUser,
    recipients: entries.length,
    distributed: formatAtPrecision(distributed, currency.precision),
    message: `Distributed ${text} to ${entries.length} ${target.ticker} holders`,
  };
}
