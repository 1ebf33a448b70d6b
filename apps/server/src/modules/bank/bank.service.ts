/**
 * The bank (SPEC §3, §7 Bank; DESIGN §4): currencies, transfers with tax, mint, burn, distribution,
 * histories, stats and the conservation audit. Every balance change goes through the ledger.
 */
import {
  ADMIN_CATEGORY,
  type Amount,
  AppError,
  type AuditResponse,
  CIRCULATING_ADD,
  CIRCULATING_SUBTRACT,
  type Currency,
  type CurrencyStatsEntry,
  fitsPrecision,
  formatAmount,
  fromNumeric,
  mulFraction,
  NEGATIVE_STAT_CATEGORIES,
  type Paging,
  type SupplyHistoryResponse,
  type SupplyInterval,
  type TransactionsResponse,
  TX_CATEGORY,
  toDecimalString,
  UNIT,
  type User as UserDto,
} from '@starlight/shared';
import { eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { currencies } from '../../db/schema/index.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Outcome } from '../../lib/group-commit.ts';
import type { LiveChanges } from '../../lib/live-changes.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { insertAdminLog } from '../audit/audit.queries.ts';
import { type Entry, postEntries } from '../ledger/ledger.posting.ts';
import { findUserByNickname, loadUserDto, toUserDto } from '../users/users.queries.ts';
import {
  type CurrencyRow,
  findCategoryTotals,
  findConservation,
  findCurrencies,
  findCurrency,
  findHolders,
  findSupplyHistory,
  findTransactions,
  findTransfersContext,
  nextCurrencyId,
  postTransfers,
} from './bank.queries.ts';

/** DESIGN §3 `Currency` on the wire: taxes as fraction strings. */
export function toCurrencyDto(row: CurrencyRow): Currency {
  const frac = (v: string) => toDecimalString(fromNumeric(v));
  return {
    currencyId: row.currencyId,
    ticker: row.ticker,
    name: row.name,
    precision: row.precision,
    canDeposit: row.canDeposit,
    canWithdraw: row.canWithdraw,
    canTransfer: row.canTransfer,
    canMint: row.canMint,
    canBurn: row.canBurn,
    isFrozen: row.isFrozen,
    frozenNote: row.frozenNote,
    depositTax: frac(row.depositTax),
    withdrawTax: frac(row.withdrawTax),
    transferTax: frac(row.transferTax),
    taxCollector: row.taxCollector,
    imgUrl: row.imgUrl,
  };
}

/** Every currency (public, SPEC §7). */
export async function listCurrencies(db: Db): Promise<Currency[]> {
  return (await findCurrencies(db)).map(toCurrencyDto);
}

async function requireCurrency(db: DbOrTx, currencyId: number): Promise<CurrencyRow> {
  const currency = await findCurrency(db, currencyId);
  if (!currency) throw new AppError('NOT_FOUND', 'Currency not found');
  return currency;
}

function requirePrecision(amount: Amount, currency: Pick<CurrencyRow, 'precision'>, field = 'amount'): void {
  if (!fitsPrecision(amount, currency.precision)) {
    throw new AppError('VALIDATION', `"${field}" contains an invalid value`);
  }
}

function requireNotFrozen(currency: Pick<CurrencyRow, 'isFrozen' | 'frozenNote' | 'ticker'>): void {
  if (currency.isFrozen) throw new AppError('CONFLICT', currency.frozenNote || `${currency.ticker} is frozen`);
}

async function requireCollector(db: DbOrTx, nickname: string | undefined): Promise<void> {
  if (nickname && !(await findUserByNickname(db, nickname))) {
    throw new AppError('VALIDATION', '"taxCollector" contains an invalid value');
  }
}

type Fraction = Amount;
export interface CurrencyInput {
  ticker?: string;
  name?: string;
  precision?: number;
  canDeposit?: boolean;
  canWithdraw?: boolean;
  canTransfer?: boolean;
  canMint?: boolean;
  canBurn?: boolean;
  isFrozen?: boolean;
  frozenNote?: string;
  depositTax?: Fraction;
  withdrawTax?: Fraction;
  transferTax?: Fraction;
  taxCollector?: string;
  imgUrl?: string;
}

function currencyColumns(input: CurrencyInput): Partial<typeof currencies.$inferInsert> {
  const out: Partial<typeof currencies.$inferInsert> = {};
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined) continue;
    (out as Record<string, unknown>)[k] = typeof v === 'bigint' ? formatAmount(v) : v;
  }
  return out;
}

/** Admin: creates a currency with the next id (DESIGN §3). Throws CONFLICT for a taken ticker. */
export async function createCurrency(
  db: Db,
  admin: AuthUser,
  input: CurrencyInput & { ticker: string; name: string; precision: number },
  address: string,
): Promise<Currency> {
  await requireCollector(db, input.taxCollector);
  return inTransaction(db, async (tx) => {
    // One creation at a time: two concurrent ones would both take max(id) + 1 (or one ticker).
    await tx.execute(sql`LOCK TABLE currencies IN SHARE ROW EXCLUSIVE MODE`);
    const taken = (await findCurrencies(tx)).some((c) => c.ticker.toUpperCase() === input.ticker.toUpperCase());
    if (taken) throw new AppError('CONFLICT', `Ticker ${input.ticker} already exists`);
    const currencyId = await nextCurrencyId(tx);
    const [row] = await tx
      .insert(currencies)
      .values({
        ...currencyColumns(input),
        currencyId,
        ticker: input.ticker,
        name: input.name,
        precision: input.precision,
      })
      .returning();
    if (!row) throw new Error('insert returned no row');
    await insertAdminLog(tx, {
      adminId: admin.id,
      address,
      category: ADMIN_CATEGORY.CreateCurrency,
      action: `Created currency ${row.ticker} (${row.currencyId})`,
    });
    return toCurrencyDto(row);
  });
}

/** Admin: changes any subset of a currency's fields but its ticker. Throws NOT_FOUND. */
export async function modifyCurrency(
  db: Db,
  admin: AuthUser,
  input: Omit<CurrencyInput, 'ticker'> & { currencyId: number },
  address: string,
): Promise<Currency> {
  const { currencyId, ...fields } = input;
  await requireCollector(db, fields.taxCollector);
  return inTransaction(db, async (tx) => {
    await requireCurrency(tx, currencyId);
    const changes = currencyColumns(fields);
    const [row] =
      Object.keys(changes).length > 0
        ? await tx.update(currencies).set(changes).where(eq(currencies.currencyId, currencyId)).returning()
        : [await requireCurrency(tx, currencyId)];
    if (!row) throw new AppError('NOT_FOUND', 'Currency not found');
    await insertAdminLog(tx, {
      adminId: admin.id,
      address,
      category: ADMIN_CATEGORY.ModifyCurrency,
      action: `Modified currency ${row.ticker}: ${Object.keys(changes).join(', ') || 'no changes'}`,
    });
    return toCurrencyDto(row);
  });
}

/** One transfer: who sends what to whom (SPEC §7 p2pTransfer). */
export interface TransferJob {
  sender: AuthUser;
  input: { recipientNickName: string; currencyId: number; amount: Amount; note?: string | undefined };
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
 * pays exactly `amount`; the tax (amount x transferTax, rounded down to the currency's precision) goes to
 * the tax collector (burned when none) as a category 4 row. A refused transfer leaves no trace and does
 * not stop the others; its outcome carries the error: NOT_FOUND (currency, recipient), CONFLICT (not
 * transferable, frozen, `Insufficient funds`), VALIDATION (precision, self-transfer). An accepted one
 * answers `{senderUser, message}` (`Sent 9.90 SD to bob (tax 0.10 SD)`), the sender's balances as they
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
  const outcomes: Array<Outcome<TransferResult> | null> = jobs.map(() => null);

  for (const [index, { sender, input }] of jobs.entries()) {
    try {
      const currency = ctx.currencies.get(input.currencyId);
      if (!currency) throw new AppError('NOT_FOUND', 'Currency not found');
      if (!currency.canTransfer) throw new AppError('CONFLICT', `${currency.ticker} cannot be transferred`);
      requireNotFrozen(currency);
      requirePrecision(input.amount, currency);
      const recipient = ctx.recipients.get(input.recipientNickName.toLowerCase());
      if (!recipient?.isActive) throw new AppError('NOT_FOUND', 'Recipient not found');
      if (recipient.id === sender.id) throw new AppError('VALIDATION', 'You cannot send to yourself');
      // The rows are locked and hold what earlier transfers of the batch left.
      if (!ctx.balances.covers(sender.id, currency.currencyId, input.amount)) {
        throw new AppError('CONFLICT', 'Insufficient funds');
      }
      const tax = mulFraction(input.amount, fromNumeric(currency.transferTax), currency.precision);
      const received = (input.amount - tax) as Amount;
      const base = { currencyId: currency.currencyId, executorId: sender.id, senderId: sender.id };
      const mine: Entry[] = [];
      if (received > 0n) {
        mine.push({
          ...base,
          category: TX_CATEGORY.Transfer,
          amount: received,
          recipientId: recipient.id,
          note: input.note ?? '',
        });
      }
      if (tax > 0n) {
        mine.push({
          ...base,
          category: TX_CATEGORY.Tax,
          amount: tax,
          recipientId: currency.collectorId,
          note: `Transfer tax to ${currency.taxCollector || 'burn'}`,
        });
      }
      for (const e of mine) {
        ctx.balances.apply(e);
        changes.touchUser(e.senderId);
        changes.touchUser(e.recipientId);
      }
      entries.push(...mine);
      const fmt = (a: Amount) => `${formatAmount(a, currency.precision)} ${currency.ticker}`;
      const taxText = tax > 0n ? ` (tax ${fmt(tax)})` : '';
      accepted.push({
        index,
        senderId: sender.id,
        message: `Sent ${fmt(received)} to ${recipient.nickname}${taxText}`,
      });
    } catch (error) {
      outcomes[index] = { ok: false, error };
    }
  }

  if (accepted.length > 0) {
    const views = await postTransfers(tx, entries, [...new Set(accepted.map((a) => a.senderId))]);
    for (const { index, senderId, message } of accepted) {
      const v = views.get(senderId);
      if (!v) throw new Error(`sender ${senderId} was not read back`);
      outcomes[index] = {
        ok: true,
        value: { senderUser: toUserDto(v.account, v.balances, v.referrerNickname), message },
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
  const [outcome] = await p2pTransfers(tx, [{ sender, input }], changes);
  if (!outcome) throw new Error('no outcome');
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

/**
 * Admin mint or burn (SPEC §7, DESIGN §4) in the caller's transaction: mint issues `amount` to the
 * member (category 10), burn removes it from the member (category 11). Writes an admin log row.
 * Throws NOT_FOUND, CONFLICT (not mintable / burnable, insufficient funds for a burn), VALIDATION.
 */
export async function mintOrBurn(
  tx: Tx,
  admin: AuthUser,
  kind: 'mint' | 'burn',
  input: { recipientNickName: string; currencyId: number; amount: Amount; note: string },
  address: string,
  changes: LiveChanges,
): Promise<{ message: string }> {
  const currency = await requireCurrency(tx, input.currencyId);
  if (kind === 'mint' && !currency.canMint) throw new AppError('CONFLICT', `${currency.ticker} cannot be minted`);
  if (kind === 'burn' && !currency.canBurn) throw new AppError('CONFLICT', `${currency.ticker} cannot be burned`);
  requirePrecision(input.amount, currency);
  const member = await findUserByNickname(tx, input.recipientNickName);
  if (!member) throw new AppError('NOT_FOUND', 'Recipient not found');
  changes.touchUser(member.id);
  await postEntries(tx, [
    {
      category: kind === 'mint' ? TX_CATEGORY.Mint : TX_CATEGORY.Burn,
      currencyId: currency.currencyId,
      amount: input.amount,
      executorId: admin.id,
      senderId: kind === 'mint' ? null : member.id,
      recipientId: kind === 'mint' ? member.id : null,
      note: input.note,
    },
  ]);
  const text = `${formatAmount(input.amount, currency.precision)} ${currency.ticker}`;
  const action = kind === 'mint' ? `Minted ${text} to ${member.nickname}` : `Burned ${text} from ${member.nickname}`;
  await insertAdminLog(tx, {
    adminId: admin.id,
    affectedUserId: member.id,
    address,
    category: kind === 'mint' ? ADMIN_CATEGORY.ManualMint : ADMIN_CATEGORY.ManualBurn,
    action: `${action}: ${input.note}`,
  });
  return { message: action };
}

/**
 * Shares `amount` of currency A among the holders of currency B, the sender excluded, pro rata to
 * their B holdings (DESIGN §4, SPEC §4 Distribution): each share is rounded down to whole units of A
 * and the remainder stays with the sender, who pays only what was shared. Category 3 rows.
 * Throws NOT_FOUND, CONFLICT (not transferable, frozen, nobody to receive a whole unit, funds).
 */
export async function distributeCurrency(
  tx: Tx,
  sender: AuthUser,
  input: { currencyId: number; amount: Amount; targetCurrencyId: number; note?: string | undefined },
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
  await postEntries(tx, entries);
  for (const e of entries) {
    changes.touchUser(e.senderId);
    changes.touchUser(e.recipientId);
  }
  const senderUser = await loadUserDto(tx, sender.id);
  if (!senderUser) throw new AppError('NOT_FOUND', 'User not found');
  const text = `${formatAmount(distributed, currency.precision)} ${currency.ticker}`;
  return {
    senderUser,
    recipients: entries.length,
    distributed: toDecimalString(distributed),
    message: `Distributed ${text} to ${entries.length} ${target.ticker} holders`,
  };
}

export interface TransactionQuery {
  paging: Paging;
  nickname?: string | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
  currencyId?: number | undefined;
  category?: number | undefined;
  amountAbove?: Amount | undefined;
  amountBelow?: Amount | undefined;
}

/**
 * A page of ledger rows, newest first: the member's own (`ownerId`) or everyone's (admin, no owner).
 * Returns `{txs, total, message}` (DESIGN §3).
 */
export async function listTransactions(
  db: Db,
  ownerId: string | undefined,
  q: TransactionQuery,
): Promise<TransactionsResponse> {
  const { txs, total } = await findTransactions(db, { ...q, ownerId, ...q.paging });
  return { txs, total, message: `Got ${txs.length} transactions` };
}

/**
 * Admin currency stats (DESIGN §4): per currency, each category's total (burns, forge burns and opened
 * chips negative) and count in the range, the signed sum, and circulating per SPEC §3.
 */
export async function currencyStats(
  db: Db,
  q: { startDate?: string | undefined; endDate?: string | undefined; currencyId?: number | undefined },
): Promise<CurrencyStatsEntry[]> {
  const rows = await findCategoryTotals(db, q);
  const byCurrency = new Map<number, CurrencyStatsEntry & { sum: bigint; circ: bigint }>();
  for (const r of rows) {
    const signed = NEGATIVE_STAT_CATEGORIES.includes(r.category) ? -r.total : r.total;
    const entry = byCurrency.get(r.currencyId) ?? {
      _id: r.currencyId,
      categories: [],
      totals: '0',
      circulating: '0',
      sum: 0n,
      circ: 0n,
    };
    entry.categories.push({ category: r.category, total: toDecimalString(signed), count: r.count });
    entry.sum += signed;
    if (CIRCULATING_ADD.includes(r.category)) entry.circ += signed;
    if (CIRCULATING_SUBTRACT.includes(r.category)) entry.circ -= signed;
    byCurrency.set(r.currencyId, entry);
  }
  return [...byCurrency.values()].map(({ sum, circ, ...e }) => ({
    ...e,
    totals: toDecimalString(sum),
    circulating: toDecimalString(circ),
  }));
}

/**
 * A currency's supply and circulating over time (public, ours; the /analytics page): one point per
 * bucket of `interval` ('1h' or '1d', aligned to the epoch, UTC) for the last `limit` buckets, oldest
 * first, the bucket holding now last; default 200. Each point's `time` is the bucket's start, and its
 * amounts are decimal strings in currency units counting every ledger row before the bucket's end:
 * `supply` = issued - removed (DESIGN §4: equals balances + escrow, as the audit checks) and
 * `circulating` per SPEC §3, the same rule as `currencyStats` over all time. A bucket before any
 * activity shows 0. Throws NOT_FOUND for an unknown currency.
 */
export async function supplyHistory(
  db: Db,
  q: { currencyId: number; interval: SupplyInterval; limit?: number | undefined },
): Promise<SupplyHistoryResponse> {
  const currency = await requireCurrency(db, q.currencyId);
  const rows = await findSupplyHistory(db, currency.currencyId, q.interval, q.limit ?? 200, {
    add: CIRCULATING_ADD,
    subtract: CIRCULATING_SUBTRACT,
    negative: NEGATIVE_STAT_CATEGORIES,
  });
  const points = rows.map((r) => ({
    time: r.time.toISOString(),
    supply: toDecimalString(r.supply),
    circulating: toDecimalString(r.circulating),
  }));
  return { points, message: `Got ${points.length} ${currency.ticker} supply points` };
}

/**
 * DESIGN §4 conservation check per currency: balances + escrow = issued - removed, and no negative
 * balance. `ok` is true only when every currency passes.
 */
export async function audit(db: Db): Promise<AuditResponse> {
  const rows = await findConservation(db);
  const list = rows.map((r) => {
    const difference = r.balances + r.escrow - (r.issued - r.removed);
    return {
      currencyId: r.currencyId,
      ticker: r.ticker,
      balances: toDecimalString(r.balances),
      escrow: toDecimalString(r.escrow),
      issued: toDecimalString(r.issued),
      removed: toDecimalString(r.removed),
      difference: toDecimalString(difference),
      negativeBalances: r.negative,
      ok: difference === 0n && r.negative === 0,
    };
  });
  const ok = list.every((c) => c.ok);
  return { ok, currencies: list, message: ok ? 'Ledger balanced' : 'Ledger NOT balanced' };
}
