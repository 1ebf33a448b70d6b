/** Wire objects for the web's tests, each complete and valid, with what a test cares about overridden. */
import type { Currency, Pair, Settlement, User } from '@starlight/shared';

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

/** Member `alice`, a user with no balance; `over` replaces fields. */
export function testUser(over: Partial<User> = {}): User {
  return {
    _id: '6a00000000000000000000a1',
    nickname: 'alice',
    email: 'alice@example.test',
    role: 'user',
    primaryWallet: null,
    isActive: true,
    isWalletOnly: false,
    isEmailVerified: true,
    isAnonymous: false,
    referrer: null,
    fame: 0,
    balances: [],
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...over,
  };
}

/** A pending withdrawal of 10.00 of currency 2 by bob, no tax; `over` replaces fields. */
export function testSettlement(over: Partial<Settlement> = {}): Settlement {
  return {
    _id: '6a0000000000000000000041',
    kind: 'withdrawal',
    user: { nickname: 'bob' },
    currencyId: 2,
    amount: '10.00',
    tax: '0.00',
    walletAddress: '0x1234567890abcdef',
    reference: '',
    state: 'pending',
    note: '',
    createdAt: '2026-11-01T00:00:00.000Z',
    settledAt: null,
    ...over,
  };
}

/** Pair GEM/CR (currencies 10 and 11), open both ways, fee 0.2%; `over` replaces fields. */
export function testPair(over: Partial<Pair> = {}): Pair {
  return {
    _id: '6a0000000000000000000001',
    name: 'GEM/CR',
    buyCurrency: 10,
    sellCurrency: 11,
    canBuy: true,
    canSell: true,
    visible: true,
    frozen: false,
    frozenNote: '',
    fee: '0.002',
    feeCollector: '',
    createdAt: '2026-11-01T00:00:00.000Z',
    ...over,
  };
}
