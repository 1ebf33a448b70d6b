/**
 * SPEC §2 Admin Console: the tabs in SPEC's order, Currency first and default. The active tab is the
 * `tab` search param of /dashboard (DESIGN §1: UI state in the URL); a tab's own params (Tnx Logs'
 * `tx*`) are dropped when the tab changes. Guild Control is SPEC's placeholder. The tab list scrolls sideways on a phone.
 * This is the console's shell only: each tab's panel belongs to its domain's feature (the forge's Forge
 * Control in features/forge, and so on) and the app composes them in (`app/pages/AdminConsolePage.tsx`).
 */
import { Card, Group, Loader, ScrollArea, Tabs, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconShieldLock } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { type ComponentType, Suspense, useEffect, useRef } from 'react';
import classes from '../../../components/admin.module.css';
import { parseDashboardSearch } from '../../../lib/route-search.ts';
import { PlaceholderPanel } from './PlaceholderPanel.tsx';

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
/** Each tab's panel but Guild Control's, owned by its domain's feature (the app composes them in). */
export type AdminPanels = Record<Exclude<AdminTab, 'guild-control'>, ComponentType>;

function TabPanelContent({ value, label, panels }: { value: AdminTab; label: string; panels: AdminPanels }) {
  if (value === 'guild-control') return <PlaceholderPanel title={label} />;
  const Panel = panels[value];
  return (
    <Suspense fallback={<Loader size="sm" />}>
      <Panel />
    </Suspense>
  );
}

/** The console; `panels` fills its tabs. */
export default function AdminConsole({ panels }: { panels: AdminPanels }) {
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
