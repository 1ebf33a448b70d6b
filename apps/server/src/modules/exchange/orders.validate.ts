/** The checks an order passes before it touches money (SPEC §5, §7 placeOrder; DESIGN §5). */
import {
  AppError,
  fieldLabel,
  fitsPrecision,
  formatAmount,
  IS_REQUIRED,
  type PlaceOrderInput,
  precisionMessage,
} from '@starlight/shared';
import type { AuthUser } from '../../http/access.ts';
import { fillCost, unitStep } from './matching.engine.ts';
import type { PairRow } from './pairs.queries.ts';
import { isAdmin } from './pairs.service.ts';

/**
 * An order as the service takes it: `placeOrder`'s parsed input, where `type`, `timeInForce` and
 * `postOnly` may be left out (limit, GTC, false: DESIGN §11.4) by callers inside the server.
 */
export type OrderInput = Omit<PlaceOrderInput, 'type' | 'timeInForce' | 'postOnly'> &
  Partial<Pick<PlaceOrderInput, 'type' | 'timeInForce' | 'postOnly'>>;

/** Refuses an order the pair's state or currencies forbid (DESIGN §5); CONFLICT with the reason. */
export function requireOpenForTrading(pair: PairRow, buySide: boolean): void {
  if (pair.frozen) throw new AppError('CONFLICT', pair.frozenNote || 'This pair is frozen');
  if (buySide && !pair.canBuy) throw new AppError('CONFLICT', 'Buying is disabled on this pair');
  if (!buySide && !pair.canSell) throw new AppError('CONFLICT', 'Selling is disabled on this pair');
  if (pair.buyFrozen) throw new AppError('CONFLICT', pair.buyFrozenNote || `${pair.buyTicker} is frozen`);
  if (pair.sellFrozen) throw new AppError('CONFLICT', pair.sellFrozenNote || `${pair.sellTicker} is frozen`);
}

/**
 * DESIGN §11.4 `expiresAt`: only a resting order (a GTC limit order) can expire, and only later than now.
 * Throws VALIDATION `Only a resting order can expire`, `"expiresAt" must be in the future`.
 */
function requireFutureExpiry(expiresAt: string, type: string, timeInForce: string): void {
  if (type === 'market' || timeInForce !== 'GTC') throw new AppError('VALIDATION', 'Only a resting order can expire');
  if (Date.parse(expiresAt) <= Date.now()) throw new AppError('VALIDATION', '"expiresAt" must be in the future');
}

/**
 * DESIGN §11.4 `stopPrice`: required on a stop-limit order, at sellCurrency's precision; refused on others.
 * Throws VALIDATION with the reason.
 */
function requireStopPrice(pair: PairRow, type: string, stopPrice: OrderInput['stopPrice']): void {
  if (type !== 'stop_limit') {
    if (stopPrice !== undefined) throw new AppError('VALIDATION', 'Only a stop-limit order takes a stop price');
    return;
  }
  if (stopPrice === undefined) throw new AppError('VALIDATION', 'Stop price is required for a stop-limit order');
  if (!fitsPrecision(stopPrice, pair.sellPrecision))
    throw new AppError('VALIDATION', precisionMessage(fieldLabel('stopPrice'), pair.sellPrecision));
}

/**
 * Checks `member`'s order on `pair` before any money moves. Throws NOT_FOUND `Pair not found` (a hidden
 * pair, to a member), CONFLICT (frozen pair: its `frozenNote`; disabled side; frozen currency),
 * VALIDATION (amount or price beyond the currencies' precision; an order worth less than one unit of
 * sellCurrency's precision; an `expiresAt` not in the future or on an order that does not rest; a market
 * order with a price, `A market order takes no price`; another order without one, `Price is required`; a
 * stop-limit order without `stopPrice`, `Stop price is required for a stop-limit order`, or one beyond
 * sellCurrency's precision; a `stopPrice` on another type, `Only a stop-limit order takes a stop price`:
 * DESIGN §11.4).
 */
export function validateOrder(pair: PairRow, member: AuthUser, input: Omit<OrderInput, 'pair'>): void {
  const { initialAmount, price, buySide, type } = input;
  if (!pair.visible && !isAdmin(member)) throw new AppError('NOT_FOUND', 'Pair not found');
  if (type === 'market' && price !== undefined) throw new AppError('VALIDATION', 'A market order takes no price');
  if (type !== 'market' && price === undefined)
    throw new AppError('VALIDATION', `${fieldLabel('price')} ${IS_REQUIRED}`);
  requireStopPrice(pair, type ?? 'limit', input.stopPrice);
  if (input.expiresAt !== undefined) requireFutureExpiry(input.expiresAt, type ?? 'limit', input.timeInForce ?? 'GTC');
  requireOpenForTrading(pair, buySide);
  if (!fitsPrecision(initialAmount, pair.buyPrecision)) {
    throw new AppError('VALIDATION', precisionMessage(fieldLabel('initialAmount'), pair.buyPrecision));
  }
  if (price === undefined) return;
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
