export * from './bank.ts';
export * from './exchange.ts';
export * from './users.ts';
