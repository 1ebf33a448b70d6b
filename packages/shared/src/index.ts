/** The contract between server and web (DESIGN §1): schemas, tables, money and format helpers. No I/O. */
export * from './errors.ts';
export * from './format.ts';
export * from './money.ts';
export * from './schemas/admin.ts';
export * from './schemas/audit.ts';
export * from './schemas/bank.ts';
export * from './schemas/capp.ts';
export * from './schemas/checkout.ts';
export * from './schemas/chips.ts';
export * from './schemas/common.ts';
export * from './schemas/exchange.ts';
export * from './schemas/forge.ts';
export * from './schemas/items.ts';
export * from './schemas/leaderboard.ts';
export * from './schemas/settlements.ts';
export * from './schemas/user.ts';
export * from './tables.ts';
