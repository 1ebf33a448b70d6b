/** POST /api/audit/setDefconLevel (admin): the alert level 0-5 and its message. */
import type { SetDefconRequest } from '@starlight/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { setDefcon } from '../../../lib/defcon.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Sets the alert level every visitor sees. */
export function setDefconLevel(body: SetDefconRequest): Promise<{ message: string }> {
  return api<{ message: string }>('POST', '/audit/setDefconLevel', body);
}

/** The mutation; this page shows the new level at once, and the admin log refreshes. */
export function useSetDefconLevel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: setDefconLevel,
    onSuccess: async (_res, body) => {
      setDefcon(body);
      await client.invalidateQueries({ queryKey: queryKeys.adminLogs });
    },
  });
}
