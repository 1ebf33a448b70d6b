/** POST /api/user/verifyEmail `{token}` -> `{message}`. */
import type { VerifyEmailRequest } from '@starlight/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { meQuery } from '../../../lib/me.ts';
import { useSession } from '../../../lib/session.ts';

/** Verifies the e-mail a link was sent to. */
export function verifyEmail(body: VerifyEmailRequest): Promise<{ message: string }> {
  return api<{ message: string }>('POST', '/user/verifyEmail', body);
}

/**
 * The mutation. A verification keeps the session (DESIGN §8): when a member is signed in, their stored
 * user is fetched again (the verified flag, if the link was theirs) before the result shows.
 */
export function useVerifyEmail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: verifyEmail,
    onSuccess: async () => {
      const { token } = useSession.getState();
      if (!token) return;
      // Best effort: the result stands whether or not the refresh answers.
      await client.fetchQuery({ ...meQuery(token), staleTime: 0 }).catch(() => undefined);
    },
  });
}
