/**
 * What other modules may use of the marketplace: a checkout's full refund or lost dispute cancels the open
 * listings of the items it takes back (DESIGN §11.5), in its own transaction.
 */
export { cancelCheckoutListings } from './market.queries.ts';
