/**
 * SPEC §2 Dashboard: welcome with nickname; User, Admin (role admin) and Creator (role creator; on a
 * phone too, where the creator console works whole) buttons; Logout. The Admin Console opens in place
 * (?view=admin); otherwise the member's console: balances, recent activity and open orders, each linking
 * to its page, so the page is never empty, and the portfolio valued in one currency.
 */
import { Button, Card, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { MESSAGES } from '@starlight/shared';
import { IconLogout, IconShieldLock, IconUser, IconWand } from '@tabler/icons-react';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { logout } from '../../features/auth/api/logout.ts';
import { BalancesSummary } from '../../features/bank/components/BalancesSummary.tsx';
import { RecentActivity } from '../../features/bank/components/RecentActivity.tsx';
import { OpenOrdersSummary } from '../../features/exchange/components/OpenOrdersSummary.tsx';
import { PortfolioCard } from '../../features/exchange/components/PortfolioCard.tsx';
import { parseDashboardView } from '../../lib/dashboard-view.ts';
import { toastSuccess } from '../../lib/notify.ts';
import { useRequireSession } from '../../lib/use-require-session.ts';

const AdminConsolePage = lazy(() => import('./AdminConsolePage.tsx'));
const CreatorConsole = lazy(() =>
  import('../../features/creator/components/CreatorConsole.tsx').then((m) => ({ default: m.CreatorConsole })),
);
const route = getRouteApi('/dashboard');

export function DashboardPage() {
  const user = useRequireSession();
  const { view } = route.useSearch({ select: parseDashboardView });
  const navigate = useNavigate();
  if (!user) return <Loader m="xl" />;
  // A view the member's role does not open falls back to their own console.
  const shown =
    view === 'admin' && user.role === 'admin'
      ? 'admin'
      : view === 'creator' && user.role === 'creator'
        ? 'creator'
        : 'user';

  const signOut = async () => {
    await logout();
    toastSuccess(MESSAGES.loggedOut);
    await navigate({ to: '/login' });
  };

  return (
    <Stack gap="lg">
      <Card withBorder radius="md" p="lg">
        <Group justify="space-between" align="center">
          <Stack gap={2} miw={0}>
            {/* A 32-character nickname is one word wider than a phone: it may break anywhere. */}
            <Title order={2} style={{ overflowWrap: 'anywhere' }}>
              Welcome, {user.nickname}
            </Title>
            <Text c="dimmed" size="sm">
              Your Starlight console
            </Text>
          </Stack>
          <Group gap="sm">
            <Button component={Link} to="/userbank" leftSection={<IconUser size={18} />}>
              User
            </Button>
            {user.role === 'admin' && (
              <Button
                onClick={() => navigate({ to: '/dashboard', search: { view: 'admin' } })}
                color="grape"
                leftSection={<IconShieldLock size={18} />}
              >
                Admin
              </Button>
            )}
            {user.role === 'creator' && (
              <Button
                onClick={() => navigate({ to: '/dashboard', search: { view: 'creator' } })}
                color="teal.9"
                leftSection={<IconWand size={18} />}
              >
                Creator
              </Button>
            )}
            <Button variant="default" leftSection={<IconLogout size={18} />} onClick={signOut}>
              Logout
            </Button>
          </Group>
        </Group>
      </Card>
      {shown === 'admin' && (
        <Suspense fallback={<Loader />}>
          <AdminConsolePage />
        </Suspense>
      )}
      {shown === 'creator' && (
        <Suspense fallback={<Loader />}>
          <CreatorConsole />
        </Suspense>
      )}
      {shown === 'user' && (
        <Stack gap="md" data-testid="member-console">
          <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
            <BalancesSummary />
            <RecentActivity />
            <OpenOrdersSummary />
          </SimpleGrid>
          <PortfolioCard />
        </Stack>
      )}
    </Stack>
  );
}
