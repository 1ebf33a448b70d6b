/**
 * The Create / Modify Currency forms (SPEC §5 client forms): taxes typed as percents and sent as
 * fractions (/100), checkbox flags, empty optional strings dropped; Modify sends currencyId plus the
 * fields that differ from the currency as loaded, never the ticker.
 */
import { type CreateCurrencyRequest, type Currency, type ModifyCurrencyRequest, parseAmount } from '@starlight/shared';
import { labelWords } from '../../../lib/field-words.ts';
import { dropEmpty } from '../../../lib/form.ts';
import { fractionToPercent, percentToFraction } from '../../../lib/percent.ts';

export const FLAG_FIELDS = ['canDeposit', 'canWithdraw', 'canTransfer', 'canMint', 'canBurn', 'isFrozen'] as const;
export type FlagField = (typeof FLAG_FIELDS)[number];
export const FLAG_LABELS: Record<FlagField, string> = {
  canDeposit: 'Can deposit',
  canWithdraw: 'Can withdraw',
  canTransfer: 'Can transfer',
  canMint: 'Can mint',
  canBurn: 'Can burn',
  isFrozen: 'Frozen',
};

export const TAX_FIELDS = ['depositTax', 'withdrawTax', 'transferTax'] as const;
export type TaxField = (typeof TAX_FIELDS)[number];
export const TAX_LABELS: Record<TaxField, string> = {
  depositTax: 'Deposit tax',
  withdrawTax: 'Withdraw tax',
  transferTax: 'Transfer tax',
};

/** The currency dialogs' fields in words (SPEC §5 'Name is required'), by wire name. */
export const CURRENCY_FIELD_WORDS = labelWords({
  ticker: 'Ticker',
  name: 'Name',
  precision: 'Precision',
  taxCollector: 'Tax collector',
  frozenNote: 'Frozen note',
  imgUrl: 'Image URL',
  ...FLAG_LABELS,
  ...TAX_LABELS,
});

export interface CurrencyFormValues extends Record<string, unknown> {
  ticker: string;
  name: string;
  precision: number | string;
  canDeposit: boolean;
  canWithdraw: boolean;
  canTransfer: boolean;
  canMint: boolean;
  canBurn: boolean;
  isFrozen: boolean;
  frozenNote: string;
  /** Percents as typed, e.g. "1.5" for 1.5 %. */
  depositTax: string;
  withdrawTax: string;
  transferTax: string;
  taxCollector: string;
  imgUrl: string;
}

export const EMPTY_CURRENCY_FORM: CurrencyFormValues = {
  ticker: '',
  name: '',
  precision: 2,
  canDeposit: false,
  canWithdraw: false,
  canTransfer: true,
  canMint: true,
  canBurn: true,
  isFrozen: false,
  frozenNote: '',
  depositTax: '',
  withdrawTax: '',
  transferTax: '',
  taxCollector: '',
  imgUrl: '',
};

/** A currency as form values (taxes x100). */
export function currencyToForm(c: Currency): CurrencyFormValues {
  return {
    ticker: c.ticker,
    name: c.name,
    precision: c.precision,
    canDeposit: c.canDeposit,
    canWithdraw: c.canWithdraw,
    canTransfer: c.canTransfer,
    canMint: c.canMint,
    canBurn: c.canBurn,
    isFrozen: c.isFrozen,
    frozenNote: c.frozenNote,
    depositTax: fractionToPercent(c.depositTax),
    withdrawTax: fractionToPercent(c.withdrawTax),
    transferTax: fractionToPercent(c.transferTax),
    taxCollector: c.taxCollector,
    imgUrl: c.imgUrl,
  };
}

/** A typed percent as the fraction to send; a value that cannot be one stays invalid for the schema. */
function taxToWire(percent: string): string | undefined {
  if (percent.trim() === '') return undefined;
  return percentToFraction(percent) ?? 'invalid';
}

function precisionToWire(p: number | string): number | undefined {
  if (typeof p === 'number') return p;
  return p.trim() === '' ? undefined : Number(p);
}

/** Create Currency body: every flag, the typed fields, empty optional strings dropped. */
export function toCreateRequest(v: CurrencyFormValues): CreateCurrencyRequest {
  return dropEmpty({
    ticker: v.ticker.trim(),
    name: v.name.trim(),
    precision: precisionToWire(v.precision),
    canDeposit: v.canDeposit,
    canWithdraw: v.canWithdraw,
    canTransfer: v.canTransfer,
    canMint: v.canMint,
    canBurn: v.canBurn,
    isFrozen: v.isFrozen,
    frozenNote: v.frozenNote,
    depositTax: taxToWire(v.depositTax),
    withdrawTax: taxToWire(v.withdrawTax),
    transferTax: taxToWire(v.transferTax),
    taxCollector: v.taxCollector.trim(),
    imgUrl: v.imgUrl.trim(),
  }) as CreateCurrencyRequest;
}

function sameFraction(a: string, b: string): boolean {
  const x = parseAmount(a);
  const y = parseAmount(b);
  return x !== null && y !== null ? x === y : a === b;
}

/**
 * Modify Currency body: currencyId plus each field that differs from `original`. A blank name,
 * precision or tax means "leave as is"; blanking the frozen note, tax collector or image URL clears it
 * (the API accepts '' there, and otherwise an admin could never remove a tax collector).
 */
export function toModifyRequest(original: Currency, v: CurrencyFormValues): ModifyCurrencyRequest {
  const out: Record<string, unknown> = { currencyId: original.currencyId };
  const name = v.name.trim();
  if (name !== '' && name !== original.name) out.name = name;
  const precision = precisionToWire(v.precision);
  if (precision !== undefined && precision !== original.precision) out.precision = precision;
  for (const f of FLAG_FIELDS) if (v[f] !== original[f]) out[f] = v[f];
  for (const f of TAX_FIELDS) {
    const wire = taxToWire(v[f]);
    if (wire !== undefined && !sameFraction(wire, original[f])) out[f] = wire;
  }
  if (v.frozenNote !== original.frozenNote) out.frozenNote = v.frozenNote;
  const collector = v.taxCollector.trim();
  if (collector !== original.taxCollector) out.taxCollector = collector;
  const img = v.imgUrl.trim();
  if (img !== original.imgUrl) out.imgUrl = img;
  return out as ModifyCurrencyRequest;
}

/** A currency picker's options: a prompt ('Loading currencies…' while loading), then "TICKER · Name" by id. */
export function currencyOptions(list: Currency[], loading: boolean): Array<{ value: string; label: string }> {
  return [
    { value: '', label: loading ? 'Loading currencies…' : 'Choose a currency' },
    ...list.map((c) => ({ value: String(c.currencyId), label: `${c.ticker} · ${c.name}` })),
  ];
}
