/**
 * What a component under test needs around it, as the app gives it (app/providers.tsx): Mantine with the
 * app's theme, the toasts, and a query client of its own per test (no retries: a refused request shows at
 * once). The toasts do not close by themselves (the app's close after 5000 ms): a test sees every toast
 * until the component closes it, however slow the run. `renderWithProviders` renders a component inside them; `renderRoute` renders a page at its path
 * in a router of its own (memory history), with the other paths it may send the member to.
 */
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { render } from '@testing-library/react';
import { type ReactElement, type ReactNode, useState } from 'react';
import MantineRoot from '../lib/mantine-root.tsx';

export function TestProviders({ children }: { children: ReactNode }) {
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } }),
  );
  return (
    <MantineRoot>
      <Notifications autoClose={false} />
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </MantineRoot>
  );
}

/** Renders `ui` inside the app's providers; returns Testing Library's result. */
export function renderWithProviders(ui: ReactElement) {
  return render(ui, { wrapper: TestProviders });
}

/**
 * Renders `page` at `path` in a router of its own, inside the providers; `path` may carry a search
 * (`/dashboard?tab=defcon`), the page's route being its path part. Each of `elsewhere` is a path the page
 * may link or send to, rendered as a heading naming it (`Page at /login`). `at` is where the history
 * starts when `path` has parameters (`/loginCApp/$authId` at `/loginCApp/6a00...`). Returns the router,
 * to read where the member ended up (`router.state.location.pathname`, `.search`).
 */
export function renderRoute(path: string, page: () => ReactElement, elsewhere: string[] = [], at = path) {
  const root = createRootRoute({ component: Outlet });
  const routes = [
    createRoute({ getParentRoute: () => root, path: path.split('?')[0] ?? path, component: page }),
    ...elsewhere.map((to) =>
      createRoute({ getParentRoute: () => root, path: to, component: () => <h1>{`Page at ${to}`}</h1> }),
    ),
  ];
  const router = createRouter({
    routeTree: root.addChildren(routes),
    history: createMemoryHistory({ initialEntries: [at] }),
  });
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}
