/** POST /api/cex/portfolio (member, DESIGN §11.4): the signed-in member's holdings valued in one currency. */
import type { PortfolioResponse } from '@starlight/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.ts';

/** Fetches the portfolio valued in `currencyId` (401 signed out, 404 an unknown currency). */
export function getPortfolio(currencyId: number): Promise<PortfolioResponse> {
  return api<PortfolioResponse>('POST', '/cex/portfolio', { currencyId });
}

/** The portfolio in `currencyId`, keyed by the session token (idle signed out or with no currency yet). */
export function usePortfolio(currencyId: number | null) {
  const token = useSession((s) => s.token);
  return useQuery({
    queryKey: queryKeys.exchange.portfolio(token, currencyId ?? 0),
    enabled: Boolean(token) && currencyId !== null,
    queryFn: () => getPortfolio(currencyId ?? 0),
  });
}
