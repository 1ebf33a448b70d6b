/**
 * SPEC §2 Dashboard: welcome with nickname; User, Admin (role admin) and Creator (role creator,
 * desktop) buttons; Logout. The Admin Console opens in place (?view=admin).
 */
import { Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { MESSAGES } from '@starlight/shared';
import { IconLogout, IconShieldLock, IconUser, IconWand } from '@tabler/icons-react';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { logout } from '../../features/auth/api/logout.ts';
import { CexControlPanel } from '../../features/exchange/components/CexControlPanel.tsx';
import { toastSuccess } from '../../lib/notify.ts';
import { useRequireSession } from '../../lib/use-require-session.ts';

const AdminConsole = lazy(() => import('../../features/admin/components/AdminConsole.tsx'));
const route = getRouteApi('/dashboard');
/** Admin Console tabs that other features own. */
const ADMIN_PANELS = { 'cex-control': CexControlPanel };

export function DashboardPage() {
  const user = useRequireSession();
  const { view } = route.useSearch();
  const navigate = useNavigate();
  const isPhone = useMediaQuery('(max-width: 48em)');
  if (!user) return <Loader m="xl" />;

  const signOut = async () => {
    await logout();
    toastSuccess(MESSAGES.loggedOut);
    await navigate({ to: '/login' });
  };

  return (
    <Stack gap="lg">
      <Card withBorder radius="md" p="lg">
        <Group justify="space-between" align="center">
          <Stack gap={2}>
            <Title order={2}>Welcome, {user.nickname}</Title>
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
            {user.role === 'creator' && !isPhone && (
              <Button
                onClick={() => navigate({ to: '/dashboard', search: { view: 'creator' } })}
                color="teal"
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
      {view === 'admin' && user.role === 'admin' && (
        <Suspense fallback={<Loader />}>
          <AdminConsole panels={ADMIN_PANELS} />
        </Suspense>
      )}
      {view === 'creator' && user.role === 'creator' && (
        <Card withBorder p="lg">
          <Title order={3}>Creator Console</Title>
          <Text c="dimmed">Collection Control is coming soon.</Text>
        </Card>
      )}
    </Stack>
  );
}
