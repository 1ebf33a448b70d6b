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
  formatAtPrecision,
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
import type { AuthUser } from '../../http/access.ts';
import { type Outcome, onlyOutcome } from '../../lib/group-commit.ts';
import { newObjectId } from '../../lib/ids.ts';
import type { LiveChanges } from '../../lib/live-changes.ts';
import { findUserByNickname, toUserDto } from '../accounts/accounts.public.ts';
import { findTransfersContext, postTransfers } from '../bank/bank.public.ts';
import { requireCurrency, requireNotFrozen, requirePrecision } from '../bank/currencies.service.ts';
import { type Entry, postEntries } from '../ledger/ledger.public.ts';
import { notify } from '../notifications/notifications.public.ts';
import { insertAdminLog } from '../oversight/oversight.public.ts';
import {
  closeSettlement,
  findSettlements,
  insertDepositClaim,
  openedWithdrawals,
  settlementExists,
  type WithdrawalsColumn,
  withdrawalsAlong,
} from './settlements.queries.ts';
import { withdrawRulesOf } from './withdraw-addresses.service.ts';

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

/** One withdrawal: who withdraws what to where (SPEC §7 withdraw). */
export interface WithdrawJob {
  member: AuthUser;
  input: WithdrawInput;
}

/**
 * Members withdraw `amount` to `walletAddress` (DESIGN §8), a batch in the caller's transaction `tx`
 * (group commit, DESIGN §9: every withdrawal of a taxed currency credits its collector's one balance row),
 * as if they came one after the other in the given order: one statement reads the currencies with their
 * collectors and locks every balance row the batch can touch (the ledger's order), each withdrawal is
 * checked against what the earlier ones left, one statement opens the pending settlements and one posts
 * the ledger rows (category 2 out of circulation, the `withdrawTax` as category 4 to the collector, burned
 * when none; reference = the settlement) and reads the members back. An accepted withdrawal answers
 * `{senderUser, settlement, message}`; a refused one leaves no trace and does not stop the others, its
 * outcome carrying NOT_FOUND (currency), CONFLICT (the currency cannot be withdrawn or is frozen; a
 * security hold or an address outside the member's allow-list, DESIGN §11.2, read for the whole batch in
 * one statement by `withdrawRulesOf`; `Insufficient funds` for amount plus tax) or VALIDATION (more
 * decimals than the currency's precision).
 * Throws (rolling back the whole batch) only on a database failure.
 */
export async function withdrawBatch(
  tx: Tx,
  jobs: readonly WithdrawJob[],
  changes: LiveChanges,
): Promise<Outcome<WithdrawResponse>[]> {
  const ctx = await findTransfersContext(tx, {
    currencyIds: [...new Set(jobs.map((j) => j.input.currencyId))],
    nicknames: [],
    senderIds: [...new Set(jobs.map((j) => j.member.id))],
  });
  const checkRules = await withdrawRulesOf(tx, jobs);
  const entries: Entry[] = [];
  const opened: Array<{
    index: number;
    row: { id: string; userId: string; currencyId: number; amount: string; tax: string; walletAddress: string };
    precision: number;
    message: string;
  }> = [];
  const outcomes: Array<Outcome<WithdrawResponse> | null> = jobs.map(() => null);
  for (const [index, { member, input }] of jobs.entries()) {
    try {
      const currency = ctx.currencies.get(input.currencyId);
      if (!currency) throw new AppError('NOT_FOUND', 'Currency not found');
      if (!currency.canWithdraw) throw new AppError('CONFLICT', `${currency.ticker} cannot be withdrawn`);
      requireNotFrozen(currency);
      requirePrecision(input.amount, currency);
      checkRules(member.id, currency.currencyId, input.walletAddress);
      const tax = feeOf(input.amount, fromNumeric(currency.withdrawTax), currency.precision);
      // The rows are locked and hold what earlier withdrawals of the batch left.
      if (!ctx.balances.covers(member.id, currency.currencyId, (input.amount + tax) as Amount)) {
        throw new AppError('CONFLICT', 'Insufficient funds');
      }
      const id = newObjectId();
      const base = { currencyId: currency.currencyId, executorId: member.id, senderId: member.id, reference: id };
      const mine: Entry[] = [
        {
          ...base,
          category: TX_CATEGORY.Withdrawal,
          amount: input.amount,
          recipientId: null,
          note: `Withdrawal to ${input.walletAddress}`,
        },
      ];
      if (tax > 0n) {
        mine.push({
          ...base,
          category: TX_CATEGORY.Tax,
          amount: tax,
          recipientId: currency.collectorId,
          note: 'Withdrawal tax',
        });
      }
      for (const e of mine) ctx.balances.apply(e);
      entries.push(...mine);
      const fmt = (a: Amount) => `${formatAmount(a, currency.precision)} ${currency.ticker}`;
      const taxText = tax > 0n ? ` (tax ${fmt(tax)})` : '';
      opened.push({
        index,
        row: {
          id,
          userId: member.id,
          currencyId: currency.currencyId,
          amount: formatAmount(input.amount),
          tax: formatAmount(tax),
          walletAddress: input.walletAddress,
        },
        precision: currency.precision,
        message: `Withdrawal of ${fmt(input.amount)}${taxText} requested: an admin will pay it out`,
      });
    } catch (error) {
      outcomes[index] = { ok: false, error };
    }
  }
  if (opened.length > 0) {
    const { views, row: posted } = await postTransfers<WithdrawalsColumn>(
      tx,
      entries,
      [...new Set(opened.map((o) => o.row.userId))],
      changes,
      withdrawalsAlong(opened.map((o) => o.row)),
    );
    const stored = openedWithdrawals(posted);
    for (const { index, row, precision, message } of opened) {
      const v = views.get(row.userId);
      const s = stored.get(row.id);
      if (!v || !s) throw new Error(`withdrawal ${row.id} was not read back`);
      const at = (text: string) => formatAtPrecision(fromNumeric(text), precision);
      outcomes[index] = {
        ok: true,
        value: {
          senderUser: toUserDto(v.account, v.balances, v.referrerNickname, v.mfa),
          settlement: {
            _id: row.id,
            kind: 'withdrawal',
            user: { nickname: v.account.nickname },
            currencyId: row.currencyId,
            amount: at(row.amount),
            tax: at(row.tax),
            walletAddress: row.walletAddress,
            reference: '',
            state: 'pending',
            note: s.note,
            createdAt: s.createdAt.toISOString(),
            settledAt: null,
          },
          message,
        },
      };
    }
  }
  return outcomes.map((o) => o ?? { ok: false, error: new Error('withdrawal left without an outcome') });
}

/**
 * A member withdraws `amount` to `walletAddress` (DESIGN §8): `withdrawBatch` with a batch of one, in the
 * caller's transaction. Answers `{senderUser, settlement, message}`; throws the withdrawal's error.
 */
export async function withdraw(
  tx: Tx,
  member: AuthUser,
  input: WithdrawInput,
  changes: LiveChanges,
): Promise<WithdrawResponse> {
  return onlyOutcome(withdrawBatch(tx, [{ member, input }], changes));
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
 * admin log row and the admin's IP, and a `settlement_settled` notification to the member (DESIGN §11.3), all
 * in `tx`. Throws NOT_FOUND for an unknown id and CONFLICT for a settled one.
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
  await postEntries(tx, entries, changes);
  changes.touchUser(row.userId); // a refused deposit posts nothing; its settlement still changed
  const verb = input.approve ? 'Approved' : 'Refused';
  const what = `${row.kind} of ${formatAmount(amount, currency.precision)} ${currency.ticker}`;
  await insertAdminLog(tx, {
    adminId: admin.id,
    affectedUserId: row.userId,
    address,
    category: ADMIN_CATEGORY.Settlement,
    action: `${verb} ${what}${input.note ? `: ${input.note}` : ''}`,
  });
  const outcome = input.approve ? 'approved' : 'refused';
  const paidBack = row.kind === 'withdrawal' && !input.approve ? 'It was paid back to you with its tax.' : null;
  const said = [paidBack, input.note ? `Note: ${input.note}` : null].filter(Boolean).join(' ');
  await notify(
    tx,
    [
      {
        userId: row.userId,
        kind: 'settlement_settled',
        title: `Your ${what} was ${outcome}`,
        body: said || `Your ${row.kind} is settled.`,
        link: '/userbank',
      },
    ],
    changes,
  );
  return { settlement: await settlementDto(tx, row.id), message: `${verb} the ${what}` };
}
