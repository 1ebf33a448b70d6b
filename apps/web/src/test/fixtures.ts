/**
 * Wire objects for the web's tests, each complete and valid against its shared schema (answer.ts checks
 * them), with what a test cares about overridden by `over`.
 */
import {
  type Checkout,
  type CheckoutPackage,
  type Currency,
  type Order,
  PACKAGE_ITEM_TYPE,
  type Pair,
  type Settlement,
  type User,
} from '@starlight/shared';

/** The creation time every fixture carries. */
export const CREATED = '2026-11-01T00:00:00.000Z';

/** A 24-character object id ending in `n` (hex digits). */
export function testId(n: number): string {
  return n.toString(16).padStart(24, '6a00000000000000000000');
}

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

/** An active, verified member `nickname` with no balances (DESIGN §3 `User`). */
export function testUser(nickname: string, over: Partial<User> = {}): User {
  return {
    _id: testId(nickname.length + 0x100),
    nickname,
    email: `${nickname}@example.test`,
    role: 'user',
    primaryWallet: null,
    isActive: true,
    isWalletOnly: false,
    isEmailVerified: true,
    isAnonymous: false,
    referrer: null,
    fame: 0,
    balances: [],
    mfa: { totp: false, passkeys: 0 },
    createdAt: CREATED,
    updatedAt: CREATED,
    ...over,
  };
}

/** A visible, open pair buying `buy` for `sell`, fee 0.2%. */
export function testPair(buy: Currency, sell: Currency, over: Partial<Pair> = {}): Pair {
  return {
    _id: testId(0x200 + buy.currencyId),
    name: `${buy.ticker}/${sell.ticker}`,
    buyCurrency: buy.currencyId,
    sellCurrency: sell.currencyId,
    canBuy: true,
    canSell: true,
    visible: true,
    frozen: false,
    frozenNote: '',
    fee: '0.002',
    makerFee: '0.002',
    takerFee: '0.002',
    feeCollector: '',
    createdAt: CREATED,
    ...over,
  };
}

/** An open order on `pair`, nothing filled. */
export function testOrder(pair: string, over: Partial<Order> = {}): Order {
  return {
    _id: testId(0x300),
    pair,
    buySide: true,
    initialAmount: '1',
    filledAmount: '0',
    price: '1',
    state: 0,
    createdAt: CREATED,
    type: 'limit',
    timeInForce: 'GTC',
    postOnly: false,
    stopPrice: null,
    expiresAt: null,
    expired: false,
    ...over,
  };
}

/** A checkout of package `pkg` by `nickname`, just created, with the sandbox provider. */
export function testCheckout(pkg: Checkout['package'], nickname = 'alice', over: Partial<Checkout> = {}): Checkout {
  return {
    _id: testId(0x400),
    createdAt: CREATED,
    user: { nickname },
    package: pkg,
    checkoutProvider: 1,
    refId: 'sandbox-ref-1',
    ip: '127.0.0.1',
    state: 1,
    amount: '0',
    owed: '0',
    eventHistory: [],
    ...over,
  };
}

/** 'Starter pack': $4.99 for 500 Credits (currency 3) and two synth chips, active and published. */
export function testPackage(over: Partial<CheckoutPackage> = {}): CheckoutPackage {
  return {
    _id: testId(0x500),
    name: 'Starter pack',
    description: '500 Credits and two synth chips',
    imgUrl: '',
    cost: '4.99',
    currency: { currencyId: 3, amount: '500' },
    amount: '500',
    items: [{ type: PACKAGE_ITEM_TYPE.SynthChips, amount: 2 }],
    active: true,
    published: true,
    createdAt: CREATED,
    ...over,
  };
}

/** A pending withdrawal of 10.00 of currency 2 by bob, no tax; `over` replaces fields. */
export function testSettlement(over: Partial<Settlement> = {}): Settlement {
  return {
    _id: testId(0x500),
    kind: 'withdrawal',
    user: { nickname: 'bob' },
    currencyId: 2,
    amount: '10.00',
    tax: '0.00',
    walletAddress: '0x1234567890abcdef',
    reference: '',
    state: 'pending',
    note: '',
    createdAt: CREATED,
    settledAt: null,
    ...over,
  };
}
