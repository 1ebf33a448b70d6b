/**
 * The member's portfolio on the exchange (DESIGN §11.4 `portfolio`): what they hold valued in one currency
 * through the last traded prices, and the value of their balances over the last 30 days. Amounts, prices
 * and values are decimal strings; a holding without a price path has `price` and `value` null.
 */
import { z } from 'zod';
import { currencyId, decimalString } from './common.ts';

/** How many daily points `history` holds: today and the 29 days before it (UTC). */
export const PORTFOLIO_DAYS = 30;

/** `portfolio` (member, read scope): the currency to value the holdings in. */
export const portfolioRequest = z.strictObject({ currencyId });
export type PortfolioRequest = z.input<typeof portfolioRequest>;

/**
 * One holding: `amount` (the balance plus the escrow of the member's open orders, at the currency's
 * precision), `price` (units of the chosen currency per unit, rounded down to 9 decimals) and `value`
 * (amount x price, rounded down to the chosen currency's precision); both null without a price path.
 */
export const portfolioHolding = z.object({
  currencyId: z.number().int(),
  amount: decimalString,
  price: decimalString.nullable(),
  value: decimalString.nullable(),
});
export type PortfolioHolding = z.infer<typeof portfolioHolding>;

/** One day (`date` YYYY-MM-DD, UTC): the balances at the day's end valued at that day's last close. */
export const portfolioPoint = z.object({ date: z.string(), value: decimalString });
export type PortfolioPoint = z.infer<typeof portfolioPoint>;

/** `value`: the sum of the holdings' values, in the chosen currency; `history` oldest first. */
export const portfolioResponse = z.object({
  value: decimalString,
  holdings: z.array(portfolioHolding),
  history: z.array(portfolioPoint),
  message: z.string(),
});
export type PortfolioResponse = z.infer<typeof portfolioResponse>;
