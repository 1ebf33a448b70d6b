/**
 * SPEC §2, §9: the verify and reset pages move on 5 seconds after their result: to /dashboard for a
 * member still signed in, to /login for one who is not (a reset ends every session), and the page says
 * which (ResultCard).
 */
import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';

/** SPEC §9: the redirect delay after a verification or a reset (milliseconds). */
export const REDIRECT_MS = 5000;

/** Where a result page goes next. */
export type NextPage = '/dashboard' | '/login';

/** Navigates to `to` `REDIRECT_MS` after it turns from null to a page. */
export function useRedirectAfter(to: NextPage | null): void {
  const navigate = useNavigate();
  useEffect(() => {
    if (to === null) return;
    const timer = setTimeout(() => void navigate({ to }), REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [to, navigate]);
}
