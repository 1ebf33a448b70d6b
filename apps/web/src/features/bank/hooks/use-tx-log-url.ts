/**
 * The member's transaction log in /userbank's URL (DESIGN §1): its `tx*` search params, and writers
 * that keep the route's own `tab=logs` (and the desktop's `log` sub-tab) and drop everything else.
 */
import { getRouteApi } from '@tanstack/react-router';
import { parseUserBankSearch } from '../../../lib/route-search.ts';
import { pickTxLogSearch, type TxLogSearch } from '../../../lib/tx-log/tx-log-search.ts';
import type { TxLogUrl } from '../../../lib/tx-log/use-tx-log.ts';

const route = getRouteApi('/userbank');

export function useTxLogUrl(): TxLogUrl & { close: () => void } {
  const search = route.useSearch({ select: parseUserBankSearch });
  const navigate = route.useNavigate();
  const go = (next: TxLogSearch, replace = false) =>
    navigate({
      to: '/userbank',
      search: { tab: 'logs', log: search.log, ...pickTxLogSearch(next) },
      replace,
      // Paging at the foot of a long list should not jump the page to the top.
      resetScroll: false,
    });
  return {
    search: pickTxLogSearch(search),
    onSearch: (next, options) => void go(next, options?.replace),
    /** Closes the log: back to the console with no log params. */
    close: () => void navigate({ to: '/userbank', search: {}, resetScroll: false }),
  };
}
