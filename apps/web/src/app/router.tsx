/**
 * The route table: every SPEC §2 route exists; those not built yet show a coming-soon page, and any other
 * address a page-not-found page. Every page
 * loads its own code on first visit (`lazyRouteComponent`), so the first paint of `/` carries the shell
 * and the home page only, none of the app's forms, charts or date pickers.
 */
import {
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  type RouteComponent,
  redirect,
} from '@tanstack/react-router';
import { lazy } from 'react';
import { PageSkeleton } from '../components/PageSkeleton.tsx';
import type { DashboardSearch, LeaderboardSearch, ProviderSearch, UserBankSearch } from '../lib/route-search.ts';
import { Shell } from './Shell.tsx';

// Mantine's components: loaded with the page, not with the first paint of the home page.
const ComingSoon = lazy(() => import('../components/ComingSoon.tsx').then((m) => ({ default: m.ComingSoon })));
const NotFound = lazy(() => import('../components/NotFound.tsx').then((m) => ({ default: m.NotFound })));

const rootRoute = createRootRoute({
  component: Shell,
  // An address no route matches: the page does not exist (not "coming soon"), with a way home.
  notFoundComponent: NotFound,
});

const page = (path: string, component: RouteComponent, isStatic = false, isPlain = false) =>
  createRoute({ getParentRoute: () => rootRoute, path, component, staticData: { isStatic, isPlain } });
const soon = (path: string, title: string) => page(path, () => <ComingSoon title={title} />, true);

// Each page is its own chunk, fetched when the route is first visited (or hovered: defaultPreload).
const HomePage = lazyRouteComponent(() => import('../features/home/components/HomePage.tsx'), 'HomePage');
const LoginPage = lazyRouteComponent(() => import('../features/auth/components/LoginPage.tsx'), 'LoginPage');
const RegisterPage = lazyRouteComponent(() => import('../features/auth/components/RegisterPage.tsx'), 'RegisterPage');
const DashboardPage = lazyRouteComponent(() => import('./pages/DashboardPage.tsx'), 'DashboardPage');
const UserBankPage = lazyRouteComponent(() => import('./pages/UserBankPage.tsx'), 'UserBankPage');
const UserConfigPage = lazyRouteComponent(
  () => import('../features/userconfig/components/UserConfigPage.tsx'),
  'UserConfigPage',
);
const QuantumHubPage = lazyRouteComponent(
  () => import('../features/exchange/components/QuantumHubPage.tsx'),
  'QuantumHubPage',
);
const VerifyEmailPage = lazyRouteComponent(
  () => import('../features/auth/components/VerifyEmailPage.tsx'),
  'VerifyEmailPage',
);
const ConfirmWithdrawAddressPage = lazyRouteComponent(
  () => import('../features/userconfig/components/ConfirmWithdrawAddressPage.tsx'),
  'ConfirmWithdrawAddressPage',
);
const ResetPasswordPage = lazyRouteComponent(
  () => import('../features/auth/components/ResetPasswordPage.tsx'),
  'ResetPasswordPage',
);
const LoginLinkPage = lazyRouteComponent(
  () => import('../features/auth/components/LoginLinkPage.tsx'),
  'LoginLinkPage',
);
const FaqPage = lazyRouteComponent(() => import('../features/faq/components/FaqPage.tsx'), 'FaqPage');
const MediaPage = lazyRouteComponent(() => import('../features/info/components/MediaPage.tsx'), 'MediaPage');
const ReportsPage = lazyRouteComponent(() => import('../features/info/components/ReportsPage.tsx'), 'ReportsPage');
const LightpaperPage = lazyRouteComponent(
  () => import('../features/info/components/LightpaperPage.tsx'),
  'LightpaperPage',
);
const GamesPage = lazyRouteComponent(() => import('../features/info/components/GamesPage.tsx'), 'GamesPage');
const LeaderboardPage = lazyRouteComponent(
  () => import('../features/leaderboard/components/LeaderboardPage.tsx'),
  'LeaderboardPage',
);
const CheckoutPage = lazyRouteComponent(
  () => import('../features/checkout/components/CheckoutPage.tsx'),
  'CheckoutPage',
);
const SandboxPage = lazyRouteComponent(() => import('../features/checkout/components/SandboxPage.tsx'), 'SandboxPage');
const SynthChipsPage = lazyRouteComponent(
  () => import('../features/chips/components/SynthChipsPage.tsx'),
  'SynthChipsPage',
);
const OpenChipsPage = lazyRouteComponent(
  () => import('../features/chips/components/OpenChipsPage.tsx'),
  'OpenChipsPage',
);
const NotificationsPage = lazyRouteComponent(
  () => import('../features/notifications/components/NotificationsPage.tsx'),
  'NotificationsPage',
);
const MarketPage = lazyRouteComponent(() => import('../features/market/components/MarketPage.tsx'), 'MarketPage');
const AnalyticsPage = lazyRouteComponent(() => import('./pages/AnalyticsPage.tsx'), 'AnalyticsPage');
const CreatorAppConsentPage = lazyRouteComponent(
  () => import('./pages/CreatorAppConsentPage.tsx'),
  'CreatorAppConsentPage',
);

/**
 * The search params are typed here and validated where they are read (lib/route-search.ts), so this
 * table, part of the first paint, carries no Zod.
 */
const typed =
  <T,>() =>
  (search: Record<string, unknown>): T =>
    search as T;

const dashboardRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/dashboard',
  validateSearch: typed<DashboardSearch>(),
  component: DashboardPage,
});

const userBankRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/userbank',
  validateSearch: typed<UserBankSearch>(),
  component: UserBankPage,
});

const leaderboardRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/leaderboard',
  validateSearch: typed<LeaderboardSearch>(),
  component: LeaderboardPage,
});

const providerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/provider',
  validateSearch: typed<ProviderSearch>(),
  component: lazyRouteComponent(() => import('../features/checkout/components/ProviderPage.tsx'), 'ProviderPage'),
});

const registerWithReferrer = createRoute({
  getParentRoute: () => rootRoute,
  path: '/register/$referrerId',
  component: lazyRouteComponent(() => import('../features/auth/components/RegisterPage.tsx'), 'RegisterReferred'),
});

const routeTree = rootRoute.addChildren([
  page('/', HomePage, true, true),
  createRoute({
    getParentRoute: () => rootRoute,
    path: '/main',
    beforeLoad: () => {
      throw redirect({ to: '/' });
    },
  }),
  page('/login', LoginPage),
  page('/loginCApp/$authId', CreatorAppConsentPage),
  page('/register', RegisterPage),
  registerWithReferrer,
  dashboardRoute,
  page('/userconfig', UserConfigPage),
  page('/notifications', NotificationsPage),
  userBankRoute,
  leaderboardRoute,
  page('/quantumhub', QuantumHubPage),
  page('/analytics', AnalyticsPage),
  page('/media', MediaPage, true),
  page('/reports', ReportsPage, true),
  page('/lightpaper', LightpaperPage, true),
  page('/Faq', FaqPage, true),
  page('/faq', FaqPage, true),
  page('/checkout', CheckoutPage),
  page('/checkout/sandbox/$checkoutId', SandboxPage),
  providerRoute,
  page('/synthchips', SynthChipsPage),
  page('/openasc', OpenChipsPage),
  page('/market', MarketPage),
  page('/games', GamesPage, true),
  soon('/rewards', 'Rewards'),
  soon('/underdev', 'Under development'),
  soon('/designer', 'Designer'),
  page('/verifyemail/$token', VerifyEmailPage),
  page('/resetpassword/$token', ResetPasswordPage),
  page('/loginlink/$token', LoginLinkPage),
  page('/withdrawaddress/$token', ConfirmWithdrawAddressPage),
]);

/**
 * While a page's code loads, it shows its frame at once (`PageSkeleton`, plain markup): at once
 * (`defaultPendingMs: 0`, not after the default second of blank page) and no longer than the code
 * takes (`defaultPendingMinMs: 0`).
 */
export const router = createRouter({
  routeTree,
  defaultPreload: 'intent',
  scrollRestoration: true,
  defaultPendingComponent: PageSkeleton,
  defaultPendingMs: 0,
  defaultPendingMinMs: 0,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
  interface StaticDataRouteOption {
    /** The page shows no server data: the shell renders it without loading the query client. */
    isStatic?: boolean;
    /** The page uses no Mantine component: the shell paints it without loading Mantine. */
    isPlain?: boolean;
  }
}
