/**
 * The totals of a collection's item pages (`getItems`), kept per collection until its items change
 * (lib/kept-totals.ts). The total is a count of the collection's items up to `COUNT_CAP` past
 * the page: for a large collection that is `COUNT_CAP` index entries on every page view, far more
 * than the page itself costs. Items are only
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
