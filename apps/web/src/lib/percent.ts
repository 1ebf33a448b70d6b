/**
 * SPEC §3/§5: currency taxes are fractions (0..1) on the wire and percents in the admin UI (x100).
 * Converted with the bigint decimal helpers, never floats: 1 percent = 10_000_000n units of a fraction.
 */
import { parseAmount, toDecimalString } from '@starlight/shared';

/**
 * A percent as typed ("1.5", "1,5", " 12 ") to the fraction string the API takes ("0.015").
 * Returns null when the text is not a non-negative decimal or the fraction would need more than 9 decimals.
 * Range (0..100) is left to the shared schema, so its message stays SPEC's.
 */
export function percentToFraction(percent: string): string | null {
  const units = parseAmount(percent.trim().replace(',', '.'));
  if (units === null || units % 100n !== 0n) return null;
  return toDecimalString(units / 100n);
}

/** A fraction from the API ("0.015") to the percent shown ("1.5"); unreadable input is shown as is. */
export function fractionToPercent(fraction: string): string {
  const units = parseAmount(fraction);
  return units === null ? fraction : toDecimalString(units * 100n);
}
