/** The bank's currencies (SPEC §3, §7 Bank; DESIGN §3): listing, creation, changes, and the checks transfers share. */
import {
  ADMIN_CATEGORY,
  type Amount,
  AppError,
  type CreateCurrencyInput,
  type Currency,
  fieldLabel,
  fitsPrecision,
  formatAmount,
  fromNumeric,
  type ModifyCurrencyInput,
  precisionMessage,
  toDecimalString,
} from '@starlight/shared';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { AuthUser } from '../../http/access.ts';
import type { LiveChanges } from '../../lib/live-changes.ts';
import { findUserByNickname } from '../accounts/accounts.public.ts';
import { insertAdminLog } from '../oversight/oversight.public.ts';
import {
  type CurrencyColumns,
  type CurrencyRow,
  findCurrencies,
  findCurrency,
  findFinerHolding,
  type HoldingKind,
  insertCurrency,
  lockCurrency,
  lockCurrencyCreation,
  nextCurrencyId,
  updateCurrency,
} from './currencies.queries.ts';

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

/** The currency `currencyId`; throws NOT_FOUND `Currency not found`. */
export async function requireCurrency(db: DbOrTx, currencyId: number): Promise<CurrencyRow> {
  const currency = await findCurrency(db, currencyId);
  if (!currency) throw new AppError('NOT_FOUND', 'Currency not found');
  return currency;
}

/**
 * Throws VALIDATION when `amount` has more decimals than the currency's precision (SPEC §5), in words
 * with the field's label (DESIGN §3, the rule's own text): `Amount can have at most 2 decimals`,
 * `Amount must be a whole number` at precision 0.
 */
export function requirePrecision(amount: Amount, currency: Pick<CurrencyRow, 'precision'>, field = 'amount'): void {
  if (!fitsPrecision(amount, currency.precision)) {
    throw new AppError('VALIDATION', precisionMessage(fieldLabel(field), currency.precision));
  }
}

/** Throws CONFLICT with the frozen note when the currency is frozen (DESIGN §4). */
export function requireNotFrozen(currency: Pick<CurrencyRow, 'isFrozen' | 'frozenNote' | 'ticker'>): void {
  if (currency.isFrozen) throw new AppError('CONFLICT', currency.frozenNote || `${currency.ticker} is frozen`);
}

/**
 * Throws CONFLICT `{ticker} cannot be minted` unless the currency may be issued by a mint of the
 * system (DESIGN §4 `canMint`: admin mints and forge outputs, DESIGN §6).
 */
export function requireMintable(currency: Pick<CurrencyRow, 'canMint' | 'ticker'>): void {
  if (!currency.canMint) throw new AppError('CONFLICT', `${currency.ticker} cannot be minted`);
}

/**
 * Throws CONFLICT `{ticker} cannot be burned` unless the currency may be removed by a burn of the
 * system (DESIGN §4 `canBurn`: admin burns and forge inputs, DESIGN §6).
 */
export function requireBurnable(currency: Pick<CurrencyRow, 'canBurn' | 'ticker'>): void {
  if (!currency.canBurn) throw new AppError('CONFLICT', `${currency.ticker} cannot be burned`);
}

async function requireCollector(db: DbOrTx, nickname: string | undefined): Promise<void> {
  if (nickname && !(await findUserByNickname(db, nickname))) {
    throw new AppError('VALIDATION', '"taxCollector" contains an invalid value');
  }
}

function currencyColumns(input: Omit<ModifyCurrencyInput, 'currencyId'>): CurrencyColumns {
  const out: CurrencyColumns = {};
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined) continue;
    (out as Record<string, unknown>)[k] = typeof v === 'bigint' ? formatAmount(v) : v;
  }
  return out;
}

/**
 * Admin: creates a currency with the next id (DESIGN §3). Throws CONFLICT for a taken ticker. The new
 * currency goes in `changes`, so once committed every open page hears of it (`currencies.live.ts`).
 */
export async function createCurrency(
  db: Db,
  admin: AuthUser,
  input: CreateCurrencyInput,
  address: string,
  changes: LiveChanges,
): Promise<Currency> {
  await requireCollector(db, input.taxCollector);
  return inTransaction(db, async (tx) => {
    await lockCurrencyCreation(tx);
    const taken = (await findCurrencies(tx)).some((c) => c.ticker.toUpperCase() === input.ticker.toUpperCase());
    if (taken) throw new AppError('CONFLICT', `Ticker ${input.ticker} already exists`);
    const row = await insertCurrency(tx, {
      ...currencyColumns(input),
      currencyId: await nextCurrencyId(tx),
      ticker: input.ticker,
      name: input.name,
      precision: input.precision,
    });
    await insertAdminLog(tx, {
      adminId: admin.id,
      address,
      category: ADMIN_CATEGORY.CreateCurrency,
      action: `Created currency ${row.ticker} (${row.currencyId})`,
    });
    changes.touchCurrency(row.currencyId);
    return toCurrencyDto(row);
  });
}

/** Where `findFinerHolding` found an amount, as the refusal names it. */
const HOLDING_TEXT: Record<HoldingKind, string> = {
  balance: 'the finest balance of this currency',
  order: 'an open order of this currency',
  settlement: 'a pending deposit or withdrawal of this currency',
  recipe: 'a forge recipe of this currency',
  process: 'a running forge process of this currency',
};

/**
 * Throws CONFLICT `Precision {p} is below {where} ({amount})` when an amount of the currency is held
 * with more decimals than `precision` (DESIGN §3: amounts never have more decimals than their
 * currency's precision, so such an amount could no longer be moved, matched or paid). Run in the
 * transaction that changes the precision, with the currency row locked.
 */
async function requireHoldingsFit(tx: Tx, currencyId: number, precision: number): Promise<void> {
  const finer = await findFinerHolding(tx, currencyId, precision);
  if (finer) {
    const amount = toDecimalString(fromNumeric(finer.amount));
    throw new AppError('CONFLICT', `Precision ${precision} is below ${HOLDING_TEXT[finer.kind]} (${amount})`);
  }
}

/**
 * Admin: changes any subset of a currency's fields but its ticker. A lower precision is refused
 * (CONFLICT, see `requireHoldingsFit`) while any balance, open order, pending settlement, live recipe or
 * running process of the currency holds a finer amount; the check and the change run in one transaction
 * with the currency row locked (`FOR UPDATE`). Throws NOT_FOUND, VALIDATION (an unknown tax collector).
 * The currency goes in `changes`, so once committed every open page shows the change (`currencies.live.ts`).
 */
export async function modifyCurrency(
  db: Db,
  admin: AuthUser,
  input: ModifyCurrencyInput,
  address: string,
  changes: LiveChanges,
): Promise<Currency> {
  const { currencyId, ...fields } = input;
  await requireCollector(db, fields.taxCollector);
  return inTransaction(db, async (tx) => {
    const current = await lockCurrency(tx, currencyId);
    if (!current) throw new AppError('NOT_FOUND', 'Currency not found');
    if (fields.precision !== undefined && fields.precision < current.precision) {
      await requireHoldingsFit(tx, currencyId, fields.precision);
    }
    const columns = currencyColumns(fields);
    const row =
      Object.keys(columns).length > 0
        ? await updateCurrency(tx, currencyId, columns)
        : await requireCurrency(tx, currencyId);
    if (!row) throw new AppError('NOT_FOUND', 'Currency not found');
    await insertAdminLog(tx, {
      adminId: admin.id,
      address,
      category: ADMIN_CATEGORY.ModifyCurrency,
      action: `Modified currency ${row.ticker}: ${Object.keys(columns).join(', ') || 'no changes'}`,
    });
    changes.touchCurrency(row.currencyId);
    return toCurrencyDto(row);
  });
}
