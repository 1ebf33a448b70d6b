/** App-wide providers: the toast container, top-right 5000 ms (SPEC §8), inside Mantine's provider. */
import { lazy, type ReactNode } from 'react';
import { useToastsShown } from '../lib/toasts-shown.ts';
import { WithMantine } from '../lib/with-mantine.tsx';

// The toast container's code (and its transitions) loads with the first toast, not with the first paint.
const Toasts = lazy(() => import('./Toasts.tsx').then((m) => ({ default: m.Toasts })));

/**
 * The app and the one toast container. Mantine's provider is not here: the parts of a page that use
 * Mantine load it (`WithMantine`), so the home page paints without it.
 */
export function Providers({ children }: { children: ReactNode }) {
  const toasts = useToastsShown((s) => s.shown);
  return (
    <>
      {toasts && (
        <WithMantine>
          <Toasts />
        </WithMantine>
      )}
      {children}
    </>
  );
}
