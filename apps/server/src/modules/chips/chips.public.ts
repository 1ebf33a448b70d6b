/**
 * What other modules may use of the synth chips: the sale's account, which a checkout's chips come out of
 * and go back to on a refund.
 */
export { findSale, type Sale } from './chips.queries.ts';
