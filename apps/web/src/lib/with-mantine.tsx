/**
 * `WithMantine`: Mantine's provider, loaded with the first part of a page that uses Mantine's
 * components, so a page without any (the home page) paints without Mantine's code. Each
 * part that needs it (the page, the phone menu, the member's live feed, the toasts, the notices) wraps
 * itself; several providers share one theme and write the same CSS variables.
 */
import { lazy, type ReactNode, Suspense } from 'react';

const MantineRoot = lazy(() => import('./mantine-root.tsx'));

/** `children` inside the app's MantineProvider; `fallback` (nothing by default) while it loads. */
export function WithMantine({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  return (
    <Suspense fallback={fallback}>
      <MantineRoot>{children}</MantineRoot>
    </Suspense>
  );
}
