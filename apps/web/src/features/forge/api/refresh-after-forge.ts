/** What starting or ending a process changes: the member's balances, history and process list. */
import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-keys.ts';

/** The `onSuccess` of startProcess and endProcess: refetches `me`, the ledger pages and the process pages. */
export function useRefreshAfterForge() {
  const client = useQueryClient();
  return async () => {
    await Promise.all(
      [queryKeys.meAll, queryKeys.transactionsAll, queryKeys.forge.processesAll].map((queryKey) =>
        client.invalidateQueries({ queryKey }),
      ),
    );
  };
}
