/**
 * The toast container (SPEC §8, DESIGN §1: top-right, 5000 ms). It sits just below the
 * fixed header, never over the header's links or the Menu button, and is hidden while the phone menu
 * is open, so a toast never covers a control of the shell. On a phone it holds one toast (the newest,
 * lib/notify.ts): a stack of them would lie over the page's first controls; elsewhere three. While a
 * dialog is open the toasts go to the bottom of the screen (toasts.module.css), clear of its title and
 * close button.
 */
import { useMediaQuery } from '@mantine/hooks';
import { Notifications } from '@mantine/notifications';
import { useMenuOpen } from '../lib/menu-open.ts';
import { MAX_TOASTS, PHONE_TOASTS } from '../lib/notify.ts';
import classes from './toasts.module.css';

export function Toasts() {
  const menuOpen = useMenuOpen((s) => s.open);
  const phone = useMediaQuery(PHONE_TOASTS);
  return (
    <Notifications
      position="top-right"
      autoClose={5000}
      limit={phone ? 1 : MAX_TOASTS}
      classNames={{ root: classes.root, notification: classes.notification }}
      style={menuOpen ? { display: 'none' } : undefined}
    />
  );
}
