/** The app shell (SPEC §2): left and right menus on desktop, a Menu button with the full list on phones. */
import { useDisclosure } from '@mantine/hooks';
import { IconMenu2, IconStarFilled } from '@tabler/icons-react';
import { Link, Outlet, useRouterState } from '@tanstack/react-router';
import { lazy, useMemo, useState } from 'react';
import { PageSkeleton } from '../components/PageSkeleton.tsx';
import { Alerts } from '../features/alerts/components/Alerts.tsx';
import { isVerifyPromptDue, readVerifyReminder } from '../features/auth/utils/verify-reminder.ts';
import { useSession } from '../lib/session.ts';
import { WithMantine } from '../lib/with-mantine.tsx';
import { LEFT_MENU, type NavItem, RIGHT_MENU } from './nav.ts';
import classes from './shell.module.css';

/** A menu bar: icons, with their labels beside them where the window is wide enough (shell.module.css). */
function IconBar({ items, path, end = false }: { items: NavItem[]; path: string; end?: boolean }) {
  return (
    <div className={classes.bar}>
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
              <a
                className={classes.icon}
                href={item.to}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={item.label}
              >
                <Icon size={20} />
                <span className={classes.label}>{item.label}</span>
              </a>
            ) : (
              <Link className={classes.icon} data-active={active || undefined} to={item.to} aria-label={item.label}>
                <Icon size={20} />
                <span className={classes.label}>{item.label}</span>
              </Link>
            )}
          </span>
        );
      })}
    </div>
  );
}

/** A signed-in member's own feed (balances, orders), loaded with its socket code only once someone signs in. */
// Server data (TanStack Query) loads with the first page that shows some: not with the home page's first paint.
const DataProvider = lazy(() => import('./DataProvider.tsx').then((m) => ({ default: m.DataProvider })));

const PhoneMenu = lazy(() => import('./PhoneMenu.tsx').then((m) => ({ default: m.PhoneMenu })));

const VerifyEmailPrompt = lazy(() =>
  import('../features/auth/components/VerifyEmailPrompt.tsx').then((m) => ({ default: m.VerifyEmailPrompt })),
);

const NotificationBell = lazy(() =>
  import('../features/notifications/components/NotificationBell.tsx').then((m) => ({ default: m.NotificationBell })),
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
  // Pages marked `staticData.isPlain` (the home page) use no Mantine component: Mantine loads with the
  // first part of a page that does (`WithMantine`), so they paint without it.
  const isPlain = useRouterState({ select: (s) => s.matches.some((m) => m.staticData.isPlain === true) });
  return (
    <>
      {signedIn && path !== '/quantumhub' && (
        <WithMantine>
          <DataProvider>
            <MemberLive />
          </DataProvider>
        </WithMantine>
      )}
      <header className={classes.header}>
        <div className={classes.headerRow}>
          <div className={classes.group}>
            <Link to="/" aria-label="Starlight home" className={classes.brand}>
              <IconStarFilled size={22} color="var(--mantine-color-yellow-4)" />
              <span>Starlight</span>
            </Link>
            <div className={classes.desktopOnly}>
              <IconBar items={LEFT_MENU} path={path} />
            </div>
          </div>
          <div className={classes.group}>
            <div className={classes.desktopOnly}>
              <IconBar items={RIGHT_MENU} path={path} end />
            </div>
            {signedIn && (
              <WithMantine>
                <DataProvider>
                  <NotificationBell />
                </DataProvider>
              </WithMantine>
            )}
            <button
              type="button"
              className={`${classes.menuButton} ${classes.phoneOnly}`}
              onClick={() => {
                setMenuUsed(true);
                toggle();
              }}
              aria-expanded={opened}
              aria-controls="mobile-menu"
            >
              <IconMenu2 size={16} />
              Menu
            </button>
          </div>
        </div>
      </header>
      {menuUsed && (
        <WithMantine>
          <PhoneMenu opened={opened} onClose={close} path={path} />
        </WithMantine>
      )}
      <main className={classes.main}>
        {/* In the page's flow above its content, never over a control. */}
        {promptVerify && path !== '/quantumhub' && (
          <WithMantine>
            <DataProvider>
              <VerifyEmailPrompt />
            </DataProvider>
          </WithMantine>
        )}
        {isPlain ? (
          <Outlet />
        ) : (
          // Until Mantine's provider (and the query client) load, the page's frame shows.
          <WithMantine fallback={<PageSkeleton />}>
            {isStatic ? (
              <Outlet />
            ) : (
              <DataProvider>
                <Outlet />
              </DataProvider>
            )}
          </WithMantine>
        )}
      </main>
      <Alerts />
    </>
  );
}
