/** Wire objects for the web's tests, each complete and valid, with what a test cares about overridden. */
import type { Currency } from '@starlight/shared';

/** A currency of precision 2 that may be transferred, minted and burned, no tax; `over` replaces fields. */
export function testCurrency(currencyId: number, over: Partial<Currency> = {}): Currency {
  return {
    currencyId,
    ticker: `C${currencyId}`,
    name: `Coin ${currencyId}`,
    precision: 2,
    canDeposit: false,
    canWithdraw: false,
    canTransfer: true,
    canMint: true,
    canBurn: true,
    isFrozen: false,
    frozenNote: '',
    depositTax: '0',
    withdrawTax: '0',
    transferTax: '0',
    taxCollector: 'admin',
    imgUrl: '',
    ...over,
  };
}
