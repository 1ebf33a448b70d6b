/** The category, state and role tables of SPEC §3 and §4, with their labels. */

/** Bank transaction categories (SPEC §3). */
export const TX_CATEGORY = {
  Deposit: 1,
  Withdrawal: 2,
  Transfer: 3,
  Tax: 4,
  Mint: 10,
  Burn: 11,
  CheckoutMint: 12,
  ForgeMint: 13,
  ForgeBurn: 14,
  CexOrderSubmitted: 20,
  CexOrderCancelled: 21,
  CexTradeExecuted: 22,
  CexFeesPaid: 23,
  OpenedAlphaSynthChips: 33,
  /** DESIGN §11.5: a marketplace purchase, the buyer paying the seller. */
  MarketPurchase: 50,
  /** DESIGN §11.5: the collection's royalty on a marketplace purchase, the buyer paying the creator. */
  MarketRoyalty: 51,
} as const;
export type TxCategory = (typeof TX_CATEGORY)[keyof typeof TX_CATEGORY];

/** Groups of categories a ledger list filters on at once (`categoryGroup`): `market`, DESIGN §11.5's two. */
export const TX_CATEGORY_GROUPS = {
  market: [TX_CATEGORY.MarketPurchase, TX_CATEGORY.MarketRoyalty],
} as const satisfies Record<string, readonly TxCategory[]>;
export type TxCategoryGroup = keyof typeof TX_CATEGORY_GROUPS;

export const TX_CATEGORY_LABELS: Record<TxCategory, string> = {
  1: 'Deposit',
  2: 'Withdrawal',
  3: 'Transfer',
  4: 'Tax',
  10: 'Mint',
  11: 'Burn',
  12: 'Checkout Mint',
  13: 'Forge Mint',
  14: 'Forge Burn',
  20: 'CEX Order Submitted',
  21: 'CEX Order Cancelled',
  22: 'CEX Trade Executed',
  23: 'CEX Fees Paid',
  33: 'Opened Alpha Synth Chips',
  50: 'Market Purchase',
  51: 'Market Royalty',
};

/** Categories whose currency-stats totals count negative (DESIGN §4). */
export const NEGATIVE_STAT_CATEGORIES: readonly number[] = [11, 14, 33];
/** SPEC §3: circulating adds these categories... */
export const CIRCULATING_ADD: readonly number[] = [1, 10, 11, 12, 13, 14, 33];
/** ...and subtracts these. */
export const CIRCULATING_SUBTRACT: readonly number[] = [2, 4, 23];

/** Access log login types (SPEC §3). */
export const LOGIN_TYPE_LABELS: Record<number, string> = {
  1: 'Email Login',
  2: 'Wallet Login',
  3: 'Creator App Login by Email',
  4: 'Creator App Login by Wallet',
};

/** Admin action categories (SPEC §3). */
export const ADMIN_CATEGORY = {
  AdministrateUser: 1,
  CreateCurrency: 2,
  ModifyCurrency: 3,
  ManualMint: 4,
  ManualBurn: 5,
  SetDefconLevel: 6,
  CreateCheckoutPackage: 7,
  DeleteCheckoutPackage: 8,
  PublishCheckoutPackage: 9,
  ChangedCheckoutPackageActiveState: 10,
  CreateForgeRecipe: 11,
  DeleteForgeRecipe: 12,
  PublishForgeRecipe: 13,
  ChangedForgeRecipeActiveState: 14,
  ModifyForgeRecipe: 15,
  CexTradePairCreated: 20,
  CexTradePairModified: 21,
  CexTradePairDeleted: 22,
  /** Ours (SPEC's table has no row for it): an admin approved or refused a deposit or withdrawal. */
  Settlement: 30,
  /** DESIGN §11.1: an admin ended a member's sessions. */
  EndUserSessions: 40,
  /** DESIGN §11.1: an admin reset a member's second factors. */
  ResetUserTwoFactor: 41,
  /** DESIGN §11.3: an admin sent a notification to every member, or every member of a role. */
  Broadcast: 42,
  /** DESIGN §11.2: an admin revoked one of a member's API keys. */
  RevokeUserApiKey: 43,
  /** DESIGN §11.6: an admin deleted (anonymised) a member's account. */
  DeleteUserAccount: 44,
} as const;
export type AdminCategory = (typeof ADMIN_CATEGORY)[keyof typeof ADMIN_CATEGORY];

export const ADMIN_CATEGORY_LABELS: Record<AdminCategory, string> = {
  1: 'Administrate User',
  2: 'Create Currency',
  3: 'Modify Currency',
  4: 'Manual Mint',
  5: 'Manual Burn',
  6: 'Set Defcon Level',
  7: 'Create Checkout Package',
  8: 'Delete Checkout Package',
  9: 'Publish Checkout Package',
  10: 'Changed Checkout Package Active State',
  11: 'Create Forge Recipe',
  12: 'Delete Forge Recipe',
  13: 'Publish Forge Recipe',
  14: 'Changed Forge Recipe Active State',
  15: 'Modify Forge Recipe',
  20: 'CEX Trade Pair Created',
  21: 'CEX Trade Pair Modified',
  22: 'CEX Trade Pair Deleted',
  30: 'Settlement',
  40: 'End User Sessions',
  41: 'Reset User Two-Factor',
  42: 'Broadcast',
  43: 'Revoke User API Key',
  44: 'Delete User Account',
};

/** Roles (SPEC §3, §6). */
export const ROLES = ['admin', 'user', 'creator'] as const;
export type Role = (typeof ROLES)[number];

/** Exchange order states (SPEC §4, DESIGN §5). */
export const ORDER_STATE = { Placed: 1, Cancelled: 2, Filled: 3, Untriggered: 5 } as const;
export type OrderState = (typeof ORDER_STATE)[keyof typeof ORDER_STATE];
export const ORDER_STATE_LABELS: Record<OrderState, string> = {
  1: 'Placed',
  2: 'Cancelled',
  3: 'Filled',
  5: 'Untriggered',
};

/** Forge process states (SPEC §4). */
export const PROCESS_STATE = { Started: 1, Completed: 3, Cancelled: 4 } as const;
export type ProcessState = (typeof PROCESS_STATE)[keyof typeof PROCESS_STATE];
export const PROCESS_STATE_LABELS: Record<ProcessState, string> = { 1: 'Started', 3: 'Completed', 4: 'Cancelled' };

/** Checkout states (SPEC §4, DESIGN §7). */
export const CHECKOUT_STATE = { Created: 1, Pending: 3, Delayed: 5, Resolved: 6, Cancelled: 8, Completed: 9 } as const;
export type CheckoutState = (typeof CHECKOUT_STATE)[keyof typeof CHECKOUT_STATE];
export const CHECKOUT_STATE_LABELS: Record<CheckoutState, string> = {
  1: 'Created',
  3: 'Pending',
  5: 'Delayed',
  6: 'Resolved',
  8: 'Cancelled',
  9: 'Completed',
};

/** Checkout providers (SPEC §9): 1 crypto (BTCPay Server), 2 card (Stripe). */
export const PROVIDER = { Crypto: 1, Card: 2 } as const;
export type ProviderId = (typeof PROVIDER)[keyof typeof PROVIDER];
export const PROVIDER_LABELS: Record<ProviderId, string> = { 1: 'Crypto', 2: 'Card' };

/**
 * Package item types (SPEC §5 "item type 1 to 2"): 1 Alpha synth chips from the sale's supply,
 * 2 Alpha ships drawn from the drop table.
 */
export const PACKAGE_ITEM_TYPE = { SynthChips: 1, Ships: 2 } as const;
export type PackageItemType = (typeof PACKAGE_ITEM_TYPE)[keyof typeof PACKAGE_ITEM_TYPE];
export const PACKAGE_ITEM_LABELS: Record<PackageItemType, string> = { 1: 'Alpha synth chips', 2: 'Alpha ships' };
/** The label of package item type `type` (any number, as the wire carries it). */
export const packageItemLabel = (type: number): string =>
  PACKAGE_ITEM_LABELS[type as PackageItemType] ?? `item type ${type}`;

/** Citizenship ranks by holdings of the main token, SD (SPEC §6). */
export const CITIZEN_RANKS: ReadonlyArray<{ name: string; min: number }> = [
  { name: 'Citizen', min: 0 },
  { name: 'Ethereal', min: 1000 },
  { name: 'Extraterrestrial', min: 10000 },
  { name: 'Stellar', min: 50000 },
  { name: 'Celestial', min: 100000 },
];

/** The main token whose holdings give the citizen rank. */
export const MAIN_CURRENCY_ID = 1;
/** SPEC §9: the package currency, Credits. */
export const CREDITS_CURRENCY_ID = 3;
