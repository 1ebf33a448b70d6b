/**
 * The totals of members' own history pages, kept per member until their next change (issue 19 §2,
 * lib/kept-totals.ts). A member's total is a count of their ledger rows up to `COUNT_CAP` past the page:
 * 8.6 ms of database time at 18,000 rows (the scale seed's member1), paid by every page view while the page
 * itself costs a fraction of a millisecond. It only changes when a ledger row of theirs is written, and
 * the ledger's posting names every party of its rows in the live changes (`LiveChanges.touchParties`).
 * The page's rows are always read.
 */
import type { FastifyInstance } from 'fastify';
import { type KeptTotals, startKeptTotals } from '../../lib/kept-totals.ts';

/** Kept totals of members' own lists, by member id. */
export type MemberTotals = KeptTotals;

/** Starts the kept totals of `app`'s process, dropped per member on their changes. */
export function startMemberTotals(app: FastifyInstance): MemberTotals {
  return startKeptTotals(app, (changed) => changed.users, 20_000);
}
