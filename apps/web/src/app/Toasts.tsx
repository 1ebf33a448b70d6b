/**
 * The toast container (SPEC §8, DESIGN §1: top-right, 5000 ms). It sits just below the
 * fixed header, never over the header's links or the Menu button, and is hidden while the phone menu
 * is open, so a toast never covers a control of the shell.
 */
import { Notifications } from '@mantine/notifications';
import { useMenuOpen } from '../lib/menu-open.ts';
import classes from './toasts.module.css';

export function Toasts() {
  const menuOpen = useMenuOpen((s) => s.open);
  return (
    <Notifications
      position="top-right"
      autoClose={5000}
      classNames={{ root: classes.root, notification: classes.notification }}
      style={menuOpen ? { display: 'none' } : undefined}
    />
  );
}
