/** The phone's menu (SPEC §2): the left and right menus in one list, in a drawer from the right. */
import { Drawer, NavLink, Stack } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useMenuOpen } from '../lib/menu-open.ts';
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

/** The drawer; `onClose` also runs when a link is followed. */
export function PhoneMenu({ opened, onClose, path }: { opened: boolean; onClose: () => void; path: string }) {
  const close = onClose;
  // While it is open the toasts step aside (no notice over a menu item).
  useEffect(() => {
    useMenuOpen.setState({ open: opened });
    return () => useMenuOpen.setState({ open: false });
  }, [opened]);
  return (
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
  );
}
