/**
 * The Admin Console as /dashboard shows it (?view=admin): the console's shell
 * (features/admin) filled with the tabs each domain's feature owns: the currency tab and Tnx Logs
 * (bank), User Logs and User Control (users), Access Logs, Admin Logs and Defcon Level (audit), Checkout
 * Control and Checkout Logs (checkout), Forge Control and Forge Process Logs (forge), Cex Control
 * (exchange). Each panel loads with its tab, so neither the dashboard nor the console's shell carries them.
 * An admin whose session has no second factor under `ADMIN_MFA=required` sees the enrolment notice instead
 * (`AdminMfaGate`, DESIGN §11.1).
 */
import { getRouteApi } from '@tanstack/react-router';
import { type ComponentType, lazy } from 'react';
import AdminConsole, { type AdminPanels } from '../../features/admin/components/AdminConsole.tsx';
import { AdminMfaGate } from '../../features/admin/components/AdminMfaGate.tsx';
import { parseDashboardSearch } from '../../lib/route-search.ts';
import { pickTxLogSearch } from '../../lib/tx-log/tx-log-search.ts';

const route = getRouteApi('/dashboard');
type DashboardSearch = ReturnType<typeof route.useSearch>;

/** A panel loaded with its tab: `load` imports its module, `pick` names the component. */
function lazyPanel<M>(load: () => Promise<M>, pick: (m: M) => ComponentType) {
  return lazy(() => load().then((m) => ({ default: pick(m) })));
}

const TnxLogsTab = lazy(() =>
  import('../../features/bank/components/TnxLogsTab.tsx').then((m) => ({ default: m.TnxLogsTab })),
);

/** Tnx Logs with its filters and page in the URL (`tx*` beside `view` and `tab`, DESIGN §1). */
function TnxLogsRoute() {
  const search = route.useSearch({ select: parseDashboardSearch });
  const navigate = route.useNavigate();
  return (
    <TnxLogsTab
      url={{
        search: pickTxLogSearch(search),
        onSearch: (next, options) =>
          void navigate({
            to: '/dashboard',
            search: (prev: DashboardSearch) => ({ view: prev.view, tab: prev.tab, ...pickTxLogSearch(next) }),
            replace: options?.replace,
            // Paging at the foot of the table should not jump the page to the top.
            resetScroll: false,
          }),
      }}
    />
  );
}

const ADMIN_PANELS: AdminPanels = {
  currency: lazyPanel(
    () => import('../../features/bank/components/CurrencyTab.tsx'),
    (m) => m.CurrencyTab,
  ),
  tnx: TnxLogsRoute,
  'user-logs': lazyPanel(
    () => import('../../features/users/components/UserLogsTab.tsx'),
    (m) => m.UserLogsTab,
  ),
  'access-logs': lazyPanel(
    () => import('../../features/audit/components/AccessLogsTab.tsx'),
    (m) => m.AccessLogsTab,
  ),
  'admin-logs': lazyPanel(
    () => import('../../features/audit/components/AdminLogsTab.tsx'),
    (m) => m.AdminLogsTab,
  ),
  'user-control': lazyPanel(
    () => import('../../features/users/components/UserControlTab.tsx'),
    (m) => m.UserControlTab,
  ),
  defcon: lazyPanel(
    () => import('../../features/audit/components/DefconTab.tsx'),
    (m) => m.DefconTab,
  ),
  'checkout-control': lazyPanel(
    () => import('../../features/checkout/components/CheckoutControlTab.tsx'),
    (m) => m.CheckoutControlTab,
  ),
  'checkout-logs': lazyPanel(
    () => import('../../features/checkout/components/CheckoutLogsTab.tsx'),
    (m) => m.CheckoutLogsTab,
  ),
  'forge-control': lazyPanel(
    () => import('../../features/forge/components/ForgeControlTab.tsx'),
    (m) => m.ForgeControlTab,
  ),
  'forge-logs': lazyPanel(
    () => import('../../features/forge/components/ForgeProcessLogsTab.tsx'),
    (m) => m.ForgeProcessLogsTab,
  ),
  'cex-control': lazyPanel(
    () => import('../../features/exchange/components/CexControlPanel.tsx'),
    (m) => m.CexControlPanel,
  ),
};

export default function AdminConsolePage() {
  return (
    <AdminMfaGate>
      <AdminConsole panels={ADMIN_PANELS} />
    </AdminMfaGate>
  );
}
