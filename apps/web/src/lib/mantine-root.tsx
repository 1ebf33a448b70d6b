/**
 * Mantine's provider with the app's theme (dark, indigo; app/theme.css repeats its variables for pages
 * painted before it loads). Loaded through `WithMantine` (./with-mantine.tsx), never with the first
 * paint of the home page.
 */
import { type CSSVariablesResolver, createTheme, MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';

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

/** The theme's MantineProvider around `children`. */
export default function MantineRoot({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="dark" cssVariablesResolver={cssVariables}>
      {children}
    </MantineProvider>
  );
}
