/** The checks an order passes before it touches money (SPEC §5, §7 placeOrder; DESIGN §5). */
import {
  AppError,
  fieldLabel,
  fitsPrecision,
  formatAmount,
  type PlaceOrderInput,
  precisionMessage,
} from '@starlight/shared';
import type { AuthUser } from '../../http/access.ts';
import { fillCost, unitStep } from './matching.engine.ts';
import type { PairRow } from './pairs.queries.ts';
import { isAdmin } from './pairs.service.ts';

/** Refuses an order the pair's state or currencies forbid (DESIGN §5); CONFLICT with the reason. */
export function requireOpenForTrading(pair: PairRow, buySide: boolean): void {
  if (pair.frozen) throw new AppError('CONFLICT', pair.frozenNote || 'This pair is frozen');
  if (buySide && !pair.canBuy) throw new AppError('CONFLICT', 'Buying is disabled on this pair');
  if (!buySide && !pair.canSell) throw new AppError('CONFLICT', 'Selling is disabled on this pair');
  if (pair.buyFrozen) throw new AppError('CONFLICT', pair.buyFrozenNote || `${pair.buyTicker} is frozen`);
  if (pair.sellFrozen) throw new AppError('CONFLICT', pair.sellFrozenNote || `${pair.sellTicker} is frozen`);
}

/**
 * Checks `member`'s order on `pair` before any money moves. Throws NOT_FOUND `Pair not found` (a hidden
 * pair, to a member), CONFLICT (frozen pair: its `frozenNote`; disabled side; frozen currency),
 * VALIDATION (amount or price beyond the currencies' precision; an order worth less than one unit of
 * sellCurrency's precision).
 */
export function validateOrder(pair: PairRow, member: AuthUser, input: Omit<PlaceOrderInput, 'pair'>): void {
  const { initialAmount, price, buySide } = input;
  if (!pair.visible && !isAdmin(member)) throw new AppError('NOT_FOUND', 'Pair not found');
  requireOpenForTrading(pair, buySide);
  if (!fitsPrecision(initialAmount, pair.buyPrecision)) {
    throw new AppError('VALIDATION', precisionMessage(fieldLabel('initialAmount'), pair.buyPrecision));
  }
  if (!fitsPrecision(price, pair.sellPrecision)) {
    throw new AppError('VALIDATION', precisionMessage(fieldLabel('price'), pair.sellPrecision));
  }
  if (fillCost(initialAmount, price, pair.sellPrecision) === 0n) {
    throw new AppError(
      'VALIDATION',
      `The order is worth less than ${formatAmount(unitStep(pair.sellPrecision), pair.sellPrecision)} ${pair.sellTicker}`,
    );
  }
}
