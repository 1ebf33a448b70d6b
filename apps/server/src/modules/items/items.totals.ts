/**
 * The totals of a collection's item pages (`getItems`), kept per collection until its items change
 * (issue 19 §2, lib/kept-totals.ts). The total is a count of the collection's items up to `COUNT_CAP` past
 * the page: at the scale seed's 86,000-item collections that is 10,001 index entries and 4.8 ms of
 * database time on every page view, while the page itself costs a fraction of a millisecond. Items are only
 * added (createItem, opened chips, a package's ships) and removed (a refund) by requests that name their
 * collection in the live changes (`LiveChanges.touchCollection`). The page's rows are always read.
 */
import type { FastifyInstance } from 'fastify';
import { type KeptTotals, startKeptTotals } from '../../lib/kept-totals.ts';

/** Kept totals of collections' item pages, by collection id (the key: the page's first row). */
export type CollectionTotals = KeptTotals;

/** Starts the kept collection totals of `app`'s process, dropped per collection on its changes. */
export function startCollectionTotals(app: FastifyInstance): CollectionTotals {
  return startKeptTotals(app, (changed) => changed.collections, 5_000);
}
