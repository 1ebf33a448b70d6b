/** The app shell (SPEC §2): left and right menus on desktop, a Menu button with the full list on phones. */
import { ActionIcon, Box, Button, Group, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconMenu2, IconStarFilled } from '@tabler/icons-react';
import { Link, Outlet, useRouterState } from '@tanstack/react-router';
import { lazy, Suspense, useMemo, useState } from 'react';
import { Alerts } from '../features/alerts/components/Alerts.tsx';
import { isVerifyPromptDue, readVerifyReminder } from '../features/auth/verify-reminder.ts';
import { useSession } from '../lib/session.ts';
import { LEFT_MENU, type NavItem, RIGHT_MENU } from './nav.ts';
import classes from './shell.module.css';

function IconBar({ items, path, end = false }: { items: NavItem[]; path: string; end?: boolean }) {
  return (
    <Group gap={4} wrap="nowrap">
      {items.map((item, i) => {
        const Icon = item.icon;
        const active = !item.external && path === item.to;
        const tip = {
          'data-label': item.label,
          className: i >= items.length - 2 && end ? `${classes.tip} ${classes.tipEnd}` : classes.tip,
        };
        return (
          <span key={item.label} {...tip}>
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
          </span>
        );
      })}
    </Group>
  );
}

/** A signed-in member's own feed (balances, orders), loaded with its socket code only once someone signs in. */
// Server data (TanStack Query) loads with the first page that shows some: not with the home page's first paint.
const DataProvider = lazy(() => import('./DataProvider.tsx').then((m) => ({ default: m.DataProvider })));

const PhoneMenu = lazy(() => import('./PhoneMenu.tsx').then((m) => ({ default: m.PhoneMenu })));

const VerifyEmailPrompt = lazy(() =>
  import('../features/auth/components/VerifyEmailPrompt.tsx').then((m) => ({ default: m.VerifyEmailPrompt })),
);

const MemberLive = lazy(() =>
  import('../features/exchange/components/MemberLive.tsx').then((m) => ({ default: m.MemberLive })),
);

export function Shell() {
  const [opened, { toggle, close }] = useDisclosure(false);
  // The phone menu's code loads with its first opening and stays for the closing animation.
  const [menuUsed, setMenuUsed] = useState(false);
  const path = useRouterState({ select: (s) => s.location.pathname });
  const signedIn = useSession((s) => s.token !== null);
  // SPEC §4: decided once per signed-in member and page load, so the popup opens at most once.
  const userId = useSession((s) => s.user?._id);
  const verifyDue = useMemo(
    () => userId !== undefined && isVerifyPromptDue(useSession.getState().user, readVerifyReminder(), Date.now()),
    [userId],
  );
  const promptVerify = signedIn && verifyDue;
  // Pages marked `staticData.isStatic` (home, coming soon) show no server data and need no query client.
  const isStatic = useRouterState({ select: (s) => s.matches.some((m) => m.staticData.isStatic === true) });
  return (
    <>
      {signedIn && path !== '/quantumhub' && (
        <Suspense fallback={null}>
          <DataProvider>
            <MemberLive />
            {promptVerify && <VerifyEmailPrompt />}
          </DataProvider>
        </Suspense>
      )}
      <Box component="header" className={classes.header}>
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
            <IconBar items={RIGHT_MENU} path={path} end />
          </Group>
          <Group hiddenFrom="md" gap="xs">
            <Button
              variant="light"
              size="sm"
              leftSection={<IconMenu2 size={16} />}
              onClick={() => {
                setMenuUsed(true);
                toggle();
              }}
              aria-expanded={opened}
              aria-controls="mobile-menu"
            >
              Menu
            </Button>
          </Group>
        </Group>
      </Box>
      {menuUsed && (
        <Suspense fallback={null}>
          <PhoneMenu opened={opened} onClose={close} path={path} />
        </Suspense>
      )}
      <Box component="main" className={classes.main}>
        {isStatic ? (
          <Outlet />
        ) : (
          <Suspense fallback={null}>
            <DataProvider>
              <Outlet />
            </DataProvider>
          </Suspense>
        )}
      </Box>
      <Alerts />
    </>
  );
}
