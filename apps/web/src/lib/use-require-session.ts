/**
 * SPEC §2 Dashboard: without token, expiry and user, go to /login; past the expiry, sign out with
 * 'Your credentials have expired, please login again'. Returns the user when the session is good.
 */
import { MESSAGES, type User } from '@starlight/shared';
import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { toastError } from './notify.ts';
import { isExpired, useSession } from './session.ts';

export function useRequireSession(): User | null {
  const { user, token, tokenexpires, clear } = useSession();
  const navigate = useNavigate();
  const expired = isExpired(tokenexpires);
  const missing = !user || !token || !tokenexpires;
  useEffect(() => {
    if (expired) {
      clear();
      toastError(MESSAGES.credentialsExpired);
      void navigate({ to: '/login' });
    } else if (missing) {
      void navigate({ to: '/login' });
    }
  }, [expired, missing, clear, navigate]);
  return expired || missing ? null : user;
}
