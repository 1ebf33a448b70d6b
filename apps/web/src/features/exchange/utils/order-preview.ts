/**
 * The create-order form's live preview, computed like the matching engine does (DESIGN §5), in bigint
 * Amounts only: a buy escrows quantity x price rounded UP to the sell currency's precision and pays the
 * pair's fee out of the bought quantity; a sell escrows its quantity and pays the fee out of its
 * proceeds (quantity x price rounded DOWN). Fees round UP to the currency they are paid in (DESIGN §4).
 */
import { type Amount, feeOf, fromNumeric, MIN_AMOUNT, parseAmount, SCALE, UNIT } from '@starlight/shared';

export interface OrderPreview {
  /** What leaves the member into escrow, and in which currency ('buy' = the pair's buyCurrency). */
  escrow: Amount;
  escrowIn: 'buy' | 'sell';
  /** The pair's fee on the proceeds, in the proceeds' currency. */
  fee: Amount;
  /** What the member receives when the order fills at its own price, after the fee. */
  proceeds: Amount;
  proceedsIn: 'buy' | 'sell';
}

function step(precision: number): bigint {
  return 10n ** BigInt(SCALE - Math.min(Math.max(precision, 0), SCALE));
}

/** Quantity x price rounded up (escrow) or down (fill) to `precision` decimals. */
export function costOf(quantity: Amount, price: Amount, precision: number, roundUp: boolean): Amount {
  const s = step(precision) * UNIT;
  const raw = quantity * price;
  const steps = roundUp ? (raw + s - 1n) / s : raw / s;
  return (steps * step(precision)) as Amount;
}

/** Parses a form field as a positive Amount (>= 0.01), else null. */
export function parsePositive(text: string): Amount | null {
  const a = parseAmount(text);
  return a !== null && a >= MIN_AMOUNT ? a : null;
}

/** The preview, or null while quantity or price is not a valid amount. */
export function previewOrder(input: {
  buySide: boolean;
  quantity: string;
  price: string;
  fee: string;
  buyPrecision: number;
  sellPrecision: number;
}): OrderPreview | null {
  const quantity = parsePositive(input.quantity);
  const price = parsePositive(input.price);
  if (quantity === null || price === null) return null;
  const fee = fromNumeric(input.fee);
  if (input.buySide) {
    const escrow = costOf(quantity, price, input.sellPrecision, true);
    const feeAmount = feeOf(quantity, fee, input.buyPrecision);
    return { escrow, escrowIn: 'sell', fee: feeAmount, proceeds: (quantity - feeAmount) as Amount, proceedsIn: 'buy' };
  }
  const gross = costOf(quantity, price, input.sellPrecision, false);
  const feeAmount = feeOf(gross, fee, input.sellPrecision);
  return {
    escrow: quantity,
    escrowIn: 'buy',
    fee: feeAmount,
    proceeds: (gross - feeAmount) as Amount,
    proceedsIn: 'sell',
  };
}
