/**
 * Deposits and withdrawals (DESIGN §8 "Deposit and withdraw", SPEC §7 Bank): the money that enters and
 * leaves Starlight through an admin. Every balance change goes through the ledger, in the caller's
 * transaction, so the conservation audit stays exact:
 * - `withdraw` debits at once: the amount leaves circulation (category 2, recipient the system) and the
 *   currency's `withdrawTax` goes to its collector (category 4, burned when none); a pending withdrawal
 *   settlement records both. Approved, nothing more moves (the payout happens outside Starlight).
 *   Refused, the member is paid back the amount and the tax (category 1 from the system, reference =
 *   the settlement), so a refusal costs the member nothing.
 * - `deposit` opens a claim and moves nothing. Approved, the system credits the amount (category 1,
 *   reference = the settlement) and the currency's `depositTax` goes from it to the collector (category
 *   4); refused, nothing moves.
 * A settlement settles once: the state moves from pending in one conditional UPDATE, in the same
 * transaction as the posting and the admin log row.
 */
import {
  ADMIN_CATEGORY,
  type Amount,
  AppError,
  type DepositInput,
  type DepositResponse,
  feeOf,
  formatAmount,
  fromNumeric,
  type GetSettlementsRequest,
  type GetSettlementsResponse,
  type Settlement,
  type SettleRequest,
  type SettleResponse,
  TX_CATEGORY,
  type WithdrawInput,
  type WithdrawResponse,
} from '@starlight/shared';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { LiveChanges } from '../../lib/live-changes.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { insertAdminLog } from '../audit/audit.queries.ts';
import { type Entry, postEntries } from '../ledger/ledger.posting.ts';
import { findUserByNickname, loadUserDto } from '../users/users.queries.ts';
import { requireCurrency, requireNotFrozen, requirePrecision } from './currencies.service.ts';
import {
  closeSettlement,
  findSettlements,
  insertDepositClaim,
  insertSettlement,
  settlementExists,
} from './settlements.queries.ts';

/** The account id of a currency's tax collector (by nickname), or null when its tax is burned. */
async function collectorIdOf(db: DbOrTx, taxCollector: string): Promise<string | null> {
  return taxCollector ? ((await findUserByNickname(db, taxCollector))?.id ?? null) : null;
}

/** The settlement `id` as the wire shows it. */
async function settlementDto(db: DbOrTx, id: string): Promise<Settlement> {
  const [found] = (await findSettlements(db, { id, limit: 1, page: 1 })).settlements;
  if (!found) throw new AppError('NOT_FOUND', 'Settlement not found');
  return found;
}

/**
 * A member withdraws `amount` to `walletAddress` (DESIGN §8): debited at once with the withdrawal tax,
 * in `tx`. Answers `{senderUser, settlement, message}`. Throws NOT_FOUND (currency), CONFLICT (the
 * currency cannot be withdrawn or is frozen; `Insufficient funds` for amount plus tax), VALIDATION
 * (more decimals than the currency's precision).
 */
export async function withdraw(
  tx: Tx,
  member: AuthUser,
  input: WithdrawInput,
  changes: LiveChanges,
): Promise<WithdrawResponse> {
  const currency = await requireCurrency(tx, input.currencyId);
  if (!currency.canWithdraw) throw new AppError('CONFLICT', `${currency.ticker} cannot be withdrawn`);
  requireNotFrozen(currency);
  requirePrecision(input.amount, currency);
  const tax = feeOf(input.amount, fromNumeric(currency.withdrawTax), currency.precision);
  const id = await insertSettlement(tx, {
    kind: 'withdrawal',
    userId: member.id,
    currencyId: currency.currencyId,
    amount: formatAmount(input.amount),
    tax: formatAmount(tax),
    walletAddress: input.walletAddress,
    reference: '',
  });
  const base = { currencyId: currency.currencyId, executorId: member.id, senderId: member.id, reference: id };
  const entries: Entry[] = [
    {
      ...base,
      category: TX_CATEGORY.Withdrawal,
      amount: input.amount,
      recipientId: null,
      note: `Withdrawal to ${input.walletAddress}`,
    },
  ];
  if (tax > 0n) {
    const collectorId = await collectorIdOf(tx, currency.taxCollector);
    entries.push({ ...base, category: TX_CATEGORY.Tax, amount: tax, recipientId: collectorId, note: 'Withdrawal tax' });
    changes.touchUser(collectorId);
  }
  // The balance CHECK refuses a debit below zero: the whole request rolls back, settlement included.
  await postEntries(tx, entries);
  changes.touchUser(member.id);
  const senderUser = await loadUserDto(tx, member.id);
  if (!senderUser) throw new AppError('NOT_FOUND', 'User not found');
  const fmt = (a: Amount) => `${formatAmount(a, currency.precision)} ${currency.ticker}`;
  const taxText = tax > 0n ? ` (tax ${fmt(tax)})` : '';
  return {
    senderUser,
    settlement: await settlementDto(tx, id),
    message: `Withdrawal of ${fmt(input.amount)}${taxText} requested: an admin will pay it out`,
  };
}

/**
 * A member claims a deposit of `amount` (DESIGN §8): a pending settlement, nothing credited until an
 * admin approves it. A reference (trimmed at the edge, compared without case: a transaction hash in hex
 * reads the same in either case) is claimed once per currency while its claim is pending or approved; a
 * refused claim frees it. Answers `{settlement, message}`. Throws NOT_FOUND (currency), CONFLICT (the
 * currency takes no deposits or is frozen; `This deposit reference has already been claimed`),
 * VALIDATION (precision).
 */
export async function deposit(tx: Tx, member: AuthUser, input: DepositInput): Promise<DepositResponse> {
  const currency = await requireCurrency(tx, input.currencyId);
  if (!currency.canDeposit) throw new AppError('CONFLICT', `${currency.ticker} cannot be deposited`);
  requireNotFrozen(currency);
  requirePrecision(input.amount, currency);
  const id = await insertDepositClaim(tx, {
    userId: member.id,
    currencyId: currency.currencyId,
    amount: formatAmount(input.amount),
    walletAddress: input.walletAddress,
    reference: input.reference,
  });
  if (!id) throw new AppError('CONFLICT', 'This deposit reference has already been claimed');
  return {
    settlement: await settlementDto(tx, id),
    message: `Deposit of ${formatAmount(input.amount, currency.precision)} ${currency.ticker} claimed: an admin will check it`,
  };
}

/** Admin: a page of settlements, pending first, then newest (DESIGN §8). */
export async function getSettlements(db: DbOrTx, query: GetSettlementsRequest): Promise<GetSettlementsResponse> {
  const { settlements, total, totalCapped } = await findSettlements(db, {
    kind: query.kind,
    state: query.state,
    limit: query.paging.limit,
    page: query.paging.page,
  });
  return { settlements, total, totalCapped, message: total === 0 ? 'No Settlements' : 'OK' };
}

/**
 * Admin: approves or refuses a pending settlement, once (see the module comment for what moves), with an
 * admin log row and the admin's IP. Throws NOT_FOUND for an unknown id and CONFLICT for a settled one.
 */
export async function settle(
  tx: Tx,
  admin: AuthUser,
  input: SettleRequest,
  address: string,
  changes: LiveChanges,
): Promise<SettleResponse> {
  const row = await closeSettlement(tx, input.settlementId, {
    state: input.approve ? 'approved' : 'refused',
    note: input.note,
    settledBy: admin.id,
  });
  if (!row) {
    if (!(await settlementExists(tx, input.settlementId))) throw new AppError('NOT_FOUND', 'Settlement not found');
    throw new AppError('CONFLICT', 'This settlement is already settled');
  }
  const currency = await requireCurrency(tx, row.currencyId);
  const amount = fromNumeric(row.amount);
  const base = { currencyId: row.currencyId, executorId: admin.id, reference: row.id };
  const entries: Entry[] = [];
  if (row.kind === 'deposit' && input.approve) {
    entries.push({
      ...base,
      category: TX_CATEGORY.Deposit,
      amount,
      senderId: null,
      recipientId: row.userId,
      note: 'Deposit approved',
    });
    const tax = feeOf(amount, fromNumeric(currency.depositTax), currency.precision);
    if (tax > 0n) {
      const collectorId = await collectorIdOf(tx, currency.taxCollector);
      entries.push({
        ...base,
        category: TX_CATEGORY.Tax,
        amount: tax,
        senderId: row.userId,
        recipientId: collectorId,
        note: 'Deposit tax',
      });
      changes.touchUser(collectorId);
    }
  }
  if (row.kind === 'withdrawal' && !input.approve) {
    const back = (amount + fromNumeric(row.tax)) as Amount;
    entries.push({
      ...base,
      category: TX_CATEGORY.Deposit,
      amount: back,
      senderId: null,
      recipientId: row.userId,
      note: 'Withdrawal refused: paid back with its tax',
    });
  }
  await postEntries(tx, entries);
  changes.touchUser(row.userId);
  const verb = input.approve ? 'Approved' : 'Refused';
  const what = `${row.kind} of ${formatAmount(amount, currency.precision)} ${currency.ticker}`;
  await insertAdminLog(tx, {
    adminId: admin.id,
    affectedUserId: row.userId,
    address,
    category: ADMIN_CATEGORY.Settlement,
    action: `${verb} ${what}${input.note ? `: ${input.note}` : ''}`,
  });
  return { settlement: await settlementDto(tx, row.id), message: `${verb} the ${what}` };
}
