/** Percent display of fractions (SPEC §5: the UI shows taxes and fees x100). Decimal math, no floats. */
import { fromNumeric, toDecimalString } from '@starlight/shared';

/** "0.015" -> "1.5". */
export function fractionToPercent(fraction: string): string {
  return toDecimalString(fromNumeric(fraction) * 100n);
}
