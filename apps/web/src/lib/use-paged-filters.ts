/**
 * The filters and page of an admin list (SPEC §4 paging): filters are typed into a draft and applied on
 * Search, which goes back to page 1; the record limit applies at once (page 1 too); after a failed page
 * the list steps back one page.
 */
import { useState } from 'react';

/** SPEC §2's record limits of the admin lists. */
export const RECORD_LIMITS = ['10', '20', '50'];

export function usePagedFilters<F extends Record<string, string>>(empty: F) {
  const [draft, setDraft] = useState(empty);
  const [applied, setApplied] = useState(empty);
  const [page, setPage] = useState(1);
  const [limit, setLimitState] = useState(10);
  return {
    draft,
    /** Sets one draft filter. */
    set: (key: keyof F, value: string) => setDraft((d) => ({ ...d, [key]: value })),
    applied,
    page,
    limit,
    /** Applies the draft and goes back to page 1. */
    search: () => {
      setApplied(draft);
      setPage(1);
    },
    setPage,
    setLimit: (value: number) => {
      setLimitState(value);
      setPage(1);
    },
    stepBack: () => setPage((p) => Math.max(1, p - 1)),
  };
}

/** The applied filters without the empty ones, for a request body. */
export function nonEmpty<F extends Record<string, string>>(filters: F): Partial<F> {
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => v.trim() !== '')) as Partial<F>;
}
