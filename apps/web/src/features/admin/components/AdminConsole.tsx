/**
 * SPEC §2 Admin Console: the tabs in SPEC's order, Currency first and default. The active tab is the
 * `tab` search param of /dashboard (DESIGN §1: UI state in the URL); a tab's own params (Tnx Logs'
 * `tx*`) are dropped when the tab changes. Guild Control is SPEC's placeholder. The tab list scrolls sideways on a phone.
 */
import { Card, Group, Loader, ScrollArea, Tabs, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconShieldLock } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { type ComponentType, Suspense, useEffect, useRef } from 'react';
import { parseDashboardSearch } from '../../../lib/route-search.ts';
import { pickTxLogSearch } from '../../../lib/tx-log/tx-log-search.ts';
import { AccessLogsTab } from './AccessLogsTab.tsx';
import { AdminLogsTab } from './AdminLogsTab.tsx';
import classes from './admin.module.css';
import { CheckoutControlTab } from './CheckoutControlTab.tsx';
import { CheckoutLogsTab } from './CheckoutLogsTab.tsx';
import { ComingSoonPanel } from './ComingSoonPanel.tsx';
import { CurrencyTab } from './CurrencyTab.tsx';
import { DefconTab } from './DefconTab.tsx';
import { ForgeControlTab } from './ForgeControlTab.tsx';
import { ForgeProcessLogsTab } from './ForgeProcessLogsTab.tsx';
import { TnxLogsTab } from './TnxLogsTab.tsx';
import { UserControlTab } from './UserControlTab.tsx';
import { UserLogsTab } from './UserLogsTab.tsx';

/** The tabs: URL value and SPEC label. */
export const ADMIN_TABS = [
  { value: 'currency', label: 'Currency' },
  { value: 'tnx', label: 'Tnx Logs' },
  { value: 'user-logs', label: 'User Logs' },
  { value: 'access-logs', label: 'Access Logs' },
  { value: 'admin-logs', label: 'Admin Logs' },
  { value: 'user-control', label: 'User Control' },
  { value: 'guild-control', label: 'Guild Control' },
  { value: 'defcon', label: 'Defcon Level' },
  { value: 'checkout-control', label: 'Checkout Control' },
  { value: 'checkout-logs', label: 'Checkout Logs' },
  { value: 'forge-control', label: 'Forge Control' },
  { value: 'forge-logs', label: 'Forge Process Logs' },
  { value: 'cex-control', label: 'Cex Control' },
] as const;

const DEFAULT_TAB = 'currency';
const route = getRouteApi('/dashboard');
type DashboardSearch = ReturnType<typeof route.useSearch>;

export type AdminTab = (typeof ADMIN_TABS)[number]['value'];
/** Panels that other features own (the app composes them in, e.g. the exchange's Cex Control). */
export type AdminPanels = Partial<Record<AdminTab, ComponentType>>;

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

function TabPanelContent({ value, label, panels }: { value: AdminTab; label: string; panels: AdminPanels }) {
  const Panel = panels[value];
  if (Panel)
    return (
      <Suspense fallback={<Loader size="sm" />}>
        <Panel />
      </Suspense>
    );
  switch (value) {
    case 'currency':
      return <CurrencyTab />;
    case 'tnx':
      return <TnxLogsRoute />;
    case 'user-logs':
      return <UserLogsTab />;
    case 'access-logs':
      return <AccessLogsTab />;
    case 'admin-logs':
      return <AdminLogsTab />;
    case 'user-control':
      return <UserControlTab />;
    case 'guild-control':
      return <ComingSoonPanel title={label} placeholder />;
    case 'defcon':
      return <DefconTab />;
    case 'checkout-control':
      return <CheckoutControlTab />;
    case 'checkout-logs':
      return <CheckoutLogsTab />;
    case 'forge-control':
      return <ForgeControlTab />;
    case 'forge-logs':
      return <ForgeProcessLogsTab />;
    default:
      return <ComingSoonPanel title={label} />;
  }
}

/** The console; `panels` fills the tabs another feature owns (a tab without a panel shows coming soon). */
export default function AdminConsole({ panels = {} }: { panels?: AdminPanels }) {
  const { tab } = route.useSearch({ select: parseDashboardSearch });
  const navigate = route.useNavigate();
  const isPhone = useMediaQuery('(max-width: 48em)');
  const active = ADMIN_TABS.some((t) => t.value === tab) ? (tab as string) : DEFAULT_TAB;

  // On a phone the list scrolls sideways: keep the active tab in view (a deep link may open any tab).
  const listRef = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run when the active tab changes, to scroll it into view
  useEffect(() => {
    if (!isPhone) return;
    listRef.current
      ?.querySelector<HTMLElement>('[data-active]')
      ?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [isPhone, active]);

  const list = (
    <Tabs.List ref={listRef} aria-label="Admin Console sections" style={isPhone ? { flexWrap: 'nowrap' } : undefined}>
      {ADMIN_TABS.map((t) => (
        <Tabs.Tab key={t.value} value={t.value} style={{ whiteSpace: 'nowrap' }} data-testid={`admin-tab-${t.value}`}>
          {t.label}
        </Tabs.Tab>
      ))}
    </Tabs.List>
  );

  return (
    <Card
      withBorder={!isPhone}
      radius="md"
      p={isPhone ? 0 : 'lg'}
      bg={isPhone ? 'transparent' : undefined}
      className={classes.contrast}
      data-testid="admin-console"
    >
      <Group gap="xs" mb="md">
        <IconShieldLock size={24} color="var(--mantine-color-grape-4)" aria-hidden />
        <Title order={2}>Admin Console</Title>
      </Group>
      <Tabs
        value={active}
        onChange={(value) => {
          // A tab's filters belong to it: switching tabs keeps only the view (SPEC §4: page 1 on a tab switch).
          if (value)
            void navigate({ to: '/dashboard', search: (prev: DashboardSearch) => ({ view: prev.view, tab: value }) });
        }}
        keepMounted={false}
      >
        {isPhone ? (
          <ScrollArea type="auto" scrollbarSize={6} offsetScrollbars="x">
            {list}
          </ScrollArea>
        ) : (
          list
        )}
        {ADMIN_TABS.map((t) => (
          <Tabs.Panel key={t.value} value={t.value} pt="md">
            {t.value === active && <TabPanelContent value={t.value} label={t.label} panels={panels} />}
          </Tabs.Panel>
        ))}
      </Tabs>
    </Card>
  );
}
