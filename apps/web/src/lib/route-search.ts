/**
 * The search params of the routes that keep UI state in the URL (DESIGN §1), as Zod schemas. The route
 * table only types them (so the first paint carries no Zod); pages read them through `parse*Search`,
 * which drops an invalid value (`.catch(undefined)`), so a hand-edited link falls back to the defaults.
 */
import { z } from 'zod';
import { txLogSearch } from './tx-log/tx-log-search.ts';

/**
 * /dashboard: the view and the Admin Console tab, and the Tnx Logs tab's filters and page (`tx*`,
 * dropped when the tab changes).
 */
export const dashboardSearch = z
  .object({
    view: z.enum(['admin', 'creator']).optional().catch(undefined),
    tab: z.string().optional().catch(undefined),
  })
  .extend(txLogSearch.shape);
export type DashboardSearch = z.infer<typeof dashboardSearch>;

/**
 * /userbank: the tab, the holdings shown first on the Bank tab (`holdings`: a gift's notification opens
 * Game Items), the User Logs sub-tab (`log`) and the transaction log's filters and page (`tx*`).
 */
export const userBankSearch = z
  .object({
    tab: z.enum(['profile', 'bank', 'logs', 'forge']).optional().catch(undefined),
    holdings: z.enum(['currency', 'items']).optional().catch(undefined),
    log: z.enum(['user', 'checkout', 'forge']).optional().catch(undefined),
  })
  .extend(txLogSearch.shape);
export type UserBankSearch = z.infer<typeof userBankSearch>;

/** /leaderboard: the currency tab (SPEC §2: SD 1, SN 2, Credits 3; SD by default). */
export const leaderboardSearch = z.object({
  currency: z.coerce
    .number()
    .pipe(z.union([z.literal(1), z.literal(2), z.literal(3)]))
    .optional()
    .catch(undefined),
});
export type LeaderboardSearch = z.infer<typeof leaderboardSearch>;

/** The valid part of /leaderboard's search. */
export const parseLeaderboardSearch = (search: unknown): LeaderboardSearch => leaderboardSearch.parse(search ?? {});

/** /provider: the checkout the provider sent the member back from. */
export type ProviderSearch = { checkout?: string };

/** The valid part of /dashboard's search (for `useSearch({ select })`). */
export const parseDashboardSearch = (search: unknown): DashboardSearch => dashboardSearch.parse(search ?? {});

/** The valid part of /userbank's search (for `useSearch({ select })`). */
export const parseUserBankSearch = (search: unknown): UserBankSearch => userBankSearch.parse(search ?? {});
