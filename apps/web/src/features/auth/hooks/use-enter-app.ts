/** After a successful sign-in or sign-up: keep the session (SPEC §4), toast the server's message, open /dashboard. */
import type { AuthResponse } from '@starlight/shared';
import { useNavigate } from '@tanstack/react-router';
import { toastSuccess } from '../../../lib/notify.ts';
import { useSession } from '../../../lib/session.ts';

export function useEnterApp() {
  const navigate = useNavigate();
  return async (res: AuthResponse) => {
    useSession.getState().signIn(res.user, res.token);
    toastSuccess(res.message);
    await navigate({ to: '/dashboard' });
  };
}
