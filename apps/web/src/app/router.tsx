/** The route table: every SPEC §2 route exists; those not built yet show a coming-soon page. */
import {
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  type RouteComponent,
  redirect,
} from '@tanstack/react-router';
import { z } from 'zod';
import { ComingSoon } from '../components/ComingSoon.tsx';
import { LoginPage } from '../features/auth/components/LoginPage.tsx';
import { RegisterPage } from '../features/auth/components/RegisterPage.tsx';
import { UserBankPage } from '../features/bank/components/UserBankPage.tsx';
import { HomePage } from '../features/home/components/HomePage.tsx';
import { UserConfigPage } from '../features/userconfig/components/UserConfigPage.tsx';
import { txLogSearch } from '../lib/tx-log/tx-log-search.ts';
import { DashboardPage } from './pages/DashboardPage.tsx';
import { Shell } from './Shell.tsx';

const rootRoute = createRootRoute({
  component: Shell,
  notFoundComponent: () => <ComingSoon title="Page not found" />,
});

const page = (path: string, component: RouteComponent) =>
  createRoute({ getParentRoute: () => rootRoute, path, component });
const soon = (path: string, title: string) => page(path, () => <ComingSoon title={title} />);

// The chart pages load their code (and their chart libraries) when first visited, not with the first paint.
const QuantumHubPage = lazyRouteComponent(
  () => import('../features/exchange/components/QuantumHubPage.tsx'),
  'QuantumHubPage',
);
const AnalyticsPage = lazyRouteComponent(() => import('./pages/AnalyticsPage.tsx'), 'AnalyticsPage');

/**
 * Dashboard view and admin console tab live in the URL (DESIGN §1: filters and paging in the URL), and
 * so do the Tnx Logs tab's filters and page (`tx*`, dropped when the tab changes).
 */
export const dashboardSearch = z
  .object({
    view: z.enum(['admin', 'creator']).optional().catch(undefined),
    tab: z.string().optional().catch(undefined),
  })
  .extend(txLogSearch.shape);

const dashboardRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/dashboard',
  validateSearch: dashboardSearch,
  component: DashboardPage,
});

/** The user area's tab, the User Logs sub-tab (`log`) and the transaction log's filters and page (`tx*`). */
export const userBankSearch = z
  .object({
    tab: z.enum(['profile', 'bank', 'logs', 'forge']).optional().catch(undefined),
    log: z.enum(['user', 'checkout', 'forge']).optional().catch(undefined),
  })
  .extend(txLogSearch.shape);

const userBankRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/userbank',
  validateSearch: userBankSearch,
  component: UserBankPage,
});

const registerWithReferrer = createRoute({
  getParentRoute: () => rootRoute,
  path: '/register/$referrerId',
  component: function RegisterReferred() {
    const { referrerId } = registerWithReferrer.useParams();
    return <RegisterPage referrer={referrerId} />;
  },
});

const routeTree = rootRoute.addChildren([
  page('/', HomePage),
  createRoute({
    getParentRoute: () => rootRoute,
    path: '/main',
    beforeLoad: () => {
      throw redirect({ to: '/' });
    },
  }),
  page('/login', LoginPage),
  soon('/loginCApp/$authId', 'Creator app sign-in'),
  page('/register', () => <RegisterPage />),
  registerWithReferrer,
  dashboardRoute,
  page('/userconfig', UserConfigPage),
  userBankRoute,
  soon('/leaderboard', 'Leader Board'),
  page('/quantumhub', QuantumHubPage),
  page('/analytics', AnalyticsPage),
  soon('/media', 'Media'),
  soon('/reports', 'Reports'),
  soon('/lightpaper', 'Lightpaper'),
  soon('/Faq', 'FAQ'),
  soon('/checkout', 'Buy Credits'),
  soon('/provider', 'Thank you for your purchase'),
  soon('/synthchips', 'Synth Chips'),
  soon('/openasc', 'Open Synth Chips'),
  soon('/games', 'Games'),
  soon('/rewards', 'Rewards'),
  soon('/underdev', 'Under development'),
  soon('/designer', 'Designer'),
  soon('/verifyemail/$token', 'Verify e-mail'),
  soon('/resetpassword/$token', 'Reset password'),
]);

export const router = createRouter({ routeTree, defaultPreload: 'intent', scrollRestoration: true });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
