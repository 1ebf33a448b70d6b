/**
 * The header's bell (DESIGN §11.3) for a signed-in member: the unread count on it, and on a click the panel
 * of the newest notifications (`BellMenu`). The panel's code (its popover or dialog and the list) loads
 * when the pointer or focus reaches the bell, and the bell is swapped for it on the first click, so a page
 * draws the bell without it. New ones arrive over the member's socket (`applyPushedNotification`).
 */
import { lazy, Suspense, useState, useTransition } from 'react';
import { clearToasts } from '../../../lib/notify.ts';
import { useBellNotifications } from '../api/notifications.ts';
import { BellCount, bellButton } from './BellButton.tsx';

export { unreadLabel } from './BellButton.tsx';

const loadBellMenu = () => import('./BellMenu.tsx');
const BellMenu = lazy(() => loadBellMenu().then((m) => ({ default: m.BellMenu })));

export function NotificationBell() {
  const list = useBellNotifications();
  const unread = list.data?.unread ?? 0;
  const [isWanted, setWanted] = useState(false);
  const [, startTransition] = useTransition();
  const standIn = (
    <BellCount unread={unread}>
      {bellButton({
        unread,
        opened: false,
        onIntent: () => {
          // A failed load is retried, and reported, by the click's `lazy`.
          loadBellMenu().catch(() => undefined);
        },
        onClick: () => {
          clearToasts();
          // A transition keeps this button on screen until the menu has loaded.
          startTransition(() => setWanted(true));
        },
      })}
    </BellCount>
  );
  return <Suspense fallback={standIn}>{isWanted ? <BellMenu isOpenedAtFirst /> : standIn}</Suspense>;
}
