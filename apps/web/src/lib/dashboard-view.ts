/**
 * The view of /dashboard in the URL (`?view=admin|creator`). One of two words, checked here without a
 * schema library, so that the member's dashboard loads none; any other value falls back to
 * the member's console. The Admin Console reads the rest of the search (`tab`, `tx*`) with Zod
 * (`route-search.ts`).
 */
export type DashboardView = { view?: 'admin' | 'creator' };

/** The valid `view` of /dashboard's search (for `useSearch({ select })`). */
export function parseDashboardView(search: unknown): DashboardView {
  const view = (search as { view?: unknown } | null)?.view;
  return view === 'admin' || view === 'creator' ? { view } : {};
}
