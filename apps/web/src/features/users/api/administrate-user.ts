/** POST /api/user/administrateUser (admin): an account's role and active state, effective at once. */
import type { AdministrateUserRequest, User } from '@starlight/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Sets `role` and/or `active` of the account named `nickname`. */
export function administrateUser(body: AdministrateUserRequest): Promise<{ user: User; message: string }> {
  return api<{ user: User; message: string }>('POST', '/user/administrateUser', body);
}

/** The mutation; the user list, stats and admin log refresh after it. */
export function useAdministrateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: administrateUser,
    onSuccess: async () => {
      await Promise.all(
        [queryKeys.adminUsers, queryKeys.adminUserStats, queryKeys.adminLogs].map((queryKey) =>
          client.invalidateQueries({ queryKey }),
        ),
      );
    },
  });
}
