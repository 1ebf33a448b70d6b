/** SPEC §2, §9: the verify and reset pages open /dashboard 5 seconds after their result. */
import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';

/** SPEC §9: the redirect delay after a verification or a reset (milliseconds). */
export const REDIRECT_MS = 5000;

/** Navigates to /dashboard `REDIRECT_MS` after `done` turns true. */
export function useRedirectAfter(done: boolean): void {
  const navigate = useNavigate();
  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => void navigate({ to: '/dashboard' }), REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [done, navigate]);
}
