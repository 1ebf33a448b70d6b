/** The pair fee in forms: shown as a percent (x100) and sent as a fraction (/100), decimal math only. */
import { parseAmount, toDecimalString, UNIT } from '@starlight/shared';

/** "0.5" (percent) -> "0.005" (fraction); null when not a plain decimal in 0..100. */
export function percentToFraction(percent: string): string | null {
  const text = percent.trim() === '' ? '0' : percent.trim();
  const a = parseAmount(text);
  if (a === null || a > 100n * UNIT) return null;
  return toDecimalString(a / 100n);
}
