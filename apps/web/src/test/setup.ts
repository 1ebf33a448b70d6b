/**
 * Set-up of the web's component tests (`web-ui` project, jsdom): what jsdom lacks and Mantine needs, the
 * mocked HTTP API (MSW: `server.use(...)` in a test adds its answers, made with `answers` of answer.ts so
 * each is checked against its route's response schema), jest-dom's matchers (`toBeInTheDocument`...), and
 * a clean page after each test. A test whose mocked answer drifted from its schema fails.
 */
import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { takeDrifts } from './answer.ts';

// A page's first render loads its modules (Mantine's date pickers among them), slow on a busy machine: the
// `findBy` queries wait longer than Testing Library's default, so a slow load does not fail a correct page.
configure({ asyncUtilTimeout: 5000 });

/** The mocked API: no handler by default, and a request no test answered fails the test. */
export const server = setupServer();

beforeAll(() => {
  server.listen({ onUnhandledFrame: 'error' });
  // The app calls fetch('/api/...') as a browser does; Node's fetch wants an absolute address. Installed
  // after MSW's interception, so MSW still sees every request.
  const intercepted = globalThis.fetch;
  globalThis.fetch = (input, init) =>
    intercepted(
      typeof input === 'string' && input.startsWith('/') ? new URL(input, window.location.href) : input,
      init,
    );
});

afterEach(() => {
  cleanup();
  // The toasts live in a store of their own: one test's toast must not answer the next test's query.
  notifications.clean();
  server.resetHandlers();
  localStorage.clear();
  const [drift] = takeDrifts();
  if (drift) throw drift;
});

afterAll(() => server.close());

// Mantine reads the colour scheme, observes sizes and waits for fonts; jsdom has none of them.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});
class NoResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
globalThis.ResizeObserver = NoResizeObserver;
Element.prototype.scrollIntoView = () => {};
// Mantine's autosizing textarea listens for web fonts loading.
Object.defineProperty(document, 'fonts', {
  configurable: true,
  value: { addEventListener: () => {}, removeEventListener: () => {}, ready: Promise.resolve() },
});
