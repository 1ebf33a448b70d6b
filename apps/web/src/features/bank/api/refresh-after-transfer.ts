/** What a member's transfer changes: their stored user (balances), `me` and their history. */

import type { User } from '@starlight/shared';
import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.ts';

/** The `onSuccess` of a money-moving member request: takes the sender's fresh user and refetches. */
export function useRefreshAfterTransfer() {
  const client = useQueryClient();
  return async (res: { senderUser: User }) => {
    useSession.getState().setUser(res.senderUser);
    await client.invalidateQueries({ queryKey: queryKeys.meAll });
    await client.invalidateQueries({ queryKey: queryKeys.transactionsAll });
  };
}
