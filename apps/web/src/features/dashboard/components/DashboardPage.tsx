/**
 * SPEC §2 Dashboard: welcome with nickname; User, Admin (role admin) and Creator (role creator,
 * desktop) buttons; Logout. The Admin Console opens in place (?view=admin).
 */
import { Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { MESSAGES } from '@starlight/shared';
import { IconLogout, IconShieldLock, IconUser, IconWand } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { toastSuccess } from '../../../lib/notify.ts';
import { useSession } from '../../../lib/session.ts';
import { useRequireSession } from '../../../lib/use-require-session.ts';
import { logout } from '../../auth/api/auth.ts';
import { clearCurrencyCache } from '../../bank/api/currencies.ts';

const AdminConsole = lazy(() => import('../../admin/components/AdminConsole.tsx'));
const route = getRouteApi('/dashboard');

export function DashboardPage() {
  const user = useRequireSession();
  const { view } = route.useSearch();
  const navigate = useNavigate();
  const client = useQueryClient();
  const isPhone = useMediaQuery('(max-width: 48em)');
  if (!user) return <Loader m="xl" />;

  const signOut = async () => {
    await logout().catch(() => undefined);
    useSession.getState().clear();
    clearCurrencyCache();
    client.clear();
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
          <AdminConsole />
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
