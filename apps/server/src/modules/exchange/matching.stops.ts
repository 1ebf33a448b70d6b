/**
 * Stop-limit triggers (DESIGN §11.4), pure: which waiting stop-limit orders a set of trades triggers, and
 * in which order they are placed. A buy stop triggers on a trade at or above its stop price, a sell stop
 * on one at or below; only a trade printed after the stop was placed triggers it. Triggered stops are
 * placed as limit orders oldest first (by `seq`, the time they were placed), so a batch's outcome never
 * depends on the order the database returned them in.
 */
import type { Amount } from '@starlight/shared';

/** A stop-limit order waiting for its trigger (state Untriggered). */
export interface WaitingStop {
  id: string;
  buySide: boolean;
  /** Null never triggers (an order that is not a stop-limit order). */
  stopPrice: Amount | null;
  /** When it was placed: lower first. */
  seq: number;
}

/** A trade's price, and `at`: the place, in its batch, of the order whose matching printed it. */
export interface Print {
  price: Amount;
  at: number;
}

/** True when a trade at `price` triggers a stop of side `buySide` at `stopPrice` (DESIGN §11.4). */
export function stopCrossed(buySide: boolean, stopPrice: Amount, price: Amount): boolean {
  return buySide ? price >= stopPrice : price <= stopPrice;
}

/**
 * The stops of `waiting` that `prints` trigger, oldest first (by `seq`). `placedAt` gives a stop's place
 * in the same batch as the prints (-1 for a stop placed before the batch): a print triggers it only when
 * its `at` is later, so a stop never triggers on a trade that printed before it was placed.
 */
export function triggeredStops<T extends WaitingStop>(
  waiting: readonly T[],
  prints: readonly Print[],
  placedAt: (stop: T) => number = () => -1,
): T[] {
  return waiting
    .filter((s) => {
      const stopPrice = s.stopPrice;
      if (stopPrice === null) return false;
      return prints.some((p) => p.at > placedAt(s) && stopCrossed(s.buySide, stopPrice, p.price));
    })
    .sort((a, b) => a.seq - b.seq);
}
