/** The app shell (SPEC §2): left and right menus on desktop, a Menu button with the full list on phones. */
import {
  ActionIcon,
  AppShell,
  Button,
  Drawer,
  Group,
  NavLink,
  Stack,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconMenu2, IconStarFilled } from '@tabler/icons-react';
import { Link, Outlet, useRouterState } from '@tanstack/react-router';
import { DefconModal } from '../features/alerts/components/DefconModal.tsx';
import { DisclaimerModal } from '../features/alerts/components/DisclaimerModal.tsx';
import { useExchangeSocket } from '../features/exchange/hooks/use-exchange-socket.ts';
import { useSession } from '../lib/session.ts';
import { LEFT_MENU, type NavItem, RIGHT_MENU } from './nav.ts';

function MenuLink({ item, active, onNavigate }: { item: NavItem; active: boolean; onNavigate?: () => void }) {
  const Icon = item.icon;
  if (item.external) {
    return (
      <NavLink
        component="a"
        href={item.to}
        target="_blank"
        rel="noopener noreferrer"
        label={item.label}
        leftSection={<Icon size={18} />}
      />
    );
  }
  return (
    <NavLink
      component={Link}
      to={item.to}
      label={item.label}
      active={active}
      leftSection={<Icon size={18} />}
      onClick={onNavigate}
    />
  );
}

function IconBar({ items, path }: { items: NavItem[]; path: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      {items.map((item) => {
        const Icon = item.icon;
        const active = !item.external && path === item.to;
        return (
          <Tooltip key={item.label} label={item.label} withArrow>
            {item.external ? (
              <ActionIcon
                component="a"
                href={item.to}
                target="_blank"
                rel="noopener noreferrer"
                variant="subtle"
                size="lg"
                aria-label={item.label}
              >
                <Icon size={20} />
              </ActionIcon>
            ) : (
              <ActionIcon
                component={Link}
                to={item.to}
                variant={active ? 'light' : 'subtle'}
                size="lg"
                aria-label={item.label}
              >
                <Icon size={20} />
              </ActionIcon>
            )}
          </Tooltip>
        );
      })}
    </Group>
  );
}

/** A signed-in member's own feed (balances, orders) on every page; the Quantum Hub runs its own socket. */
function MemberLive() {
  useExchangeSocket(null);
  return null;
}

export function Shell() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const path = useRouterState({ select: (s) => s.location.pathname });
  const signedIn = useSession((s) => s.token !== null);
  return (
    <AppShell header={{ height: 60 }} padding="md">
      {signedIn && path !== '/quantumhub' && <MemberLive />}
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <UnstyledButton component={Link} to="/" aria-label="Starlight home">
              <Group gap={6} wrap="nowrap">
                <IconStarFilled size={22} color="var(--mantine-color-yellow-4)" />
                <Text fw={700} size="lg">
                  Starlight
                </Text>
              </Group>
            </UnstyledButton>
            <Group visibleFrom="md" gap={4}>
              <IconBar items={LEFT_MENU} path={path} />
            </Group>
          </Group>
          <Group visibleFrom="md" gap={4}>
            <IconBar items={RIGHT_MENU} path={path} />
          </Group>
          <Group hiddenFrom="md" gap="xs">
            <Button
              variant="light"
              size="sm"
              leftSection={<IconMenu2 size={16} />}
              onClick={toggle}
              aria-expanded={opened}
              aria-controls="mobile-menu"
            >
              Menu
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <Drawer
        id="mobile-menu"
        opened={opened}
        onClose={close}
        title="Menu"
        position="right"
        size="xs"
        closeButtonProps={{ 'aria-label': 'Close menu' }}
      >
        <Stack gap={0}>
          {[...LEFT_MENU, ...RIGHT_MENU].map((item) => (
            <MenuLink key={item.label} item={item} active={path === item.to} onNavigate={close} />
          ))}
        </Stack>
      </Drawer>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
      <DisclaimerModal />
      <DefconModal />
    </AppShell>
  );
}
