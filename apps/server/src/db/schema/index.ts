export * from './bank.ts';
export * from './exchange.ts';
export * from './forge.ts';
export * from './users.ts';
