/** App-wide providers: Mantine (dark theme), toasts top-right 5000 ms (SPEC §8). */
import { type CSSVariablesResolver, createTheme, MantineProvider } from '@mantine/core';
import { lazy, type ReactNode, Suspense } from 'react';
import { useToastsShown } from '../lib/toasts-shown.ts';

const theme = createTheme({
  primaryColor: 'indigo',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  defaultRadius: 'md',
  components: {
    // Links inside text must not rely on colour alone (WCAG 1.4.1).
    // Plain objects rather than `X.extend(...)`, so the theme does not pull these components into the first paint.
    Anchor: { defaultProps: { underline: 'always' } },
    // Every close button needs an accessible name (WCAG 4.1.2).
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
  },
});

// Mantine's dimmed grey and error red miss WCAG AA contrast on the dark background: use lighter ones.
const cssVariables: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {},
  dark: { '--mantine-color-dimmed': t.colors.dark[1], '--mantine-color-error': t.colors.red[5] },
});

// The toast container's code (and its transitions) loads with the first toast, not with the first paint.
const Toasts = lazy(() => import('./Toasts.tsx').then((m) => ({ default: m.Toasts })));

/** Mantine and the toast container around the app (the shell adds the query client where pages need it). */
export function Providers({ children }: { children: ReactNode }) {
  const toasts = useToastsShown((s) => s.shown);
  return (
    <MantineProvider theme={theme} defaultColorScheme="dark" cssVariablesResolver={cssVariables}>
      {toasts && (
        <Suspense fallback={null}>
          <Toasts />
        </Suspense>
      )}
      {children}
    </MantineProvider>
  );
}
