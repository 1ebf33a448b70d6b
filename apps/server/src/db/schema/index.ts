export * from './bank.ts';
export * from './capp.ts';
export * from './checkout.ts';
export * from './exchange.ts';
export * from './forge.ts';
export * from './items.ts';
export * from './users.ts';
export * from './leaderboard.ts';
