/**
 * The header bell's button and its unread count (DESIGN §11.3), drawn the same by `NotificationBell` before
 * the panel's code has loaded and by `BellMenu` after.
 */
import { ActionIcon, Indicator } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import type { ReactElement, ReactNode, Ref } from 'react';

/** The bell's count: "99+" past 99. */
export function unreadLabel(unread: number): string {
  return unread > 99 ? '99+' : String(unread);
}

/** The bell's accessible name: "Notifications", or with the unread count. */
export function bellLabel(unread: number): string {
  return unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
}

/** The count on the button: a red badge, hidden at 0. */
export function BellCount({ unread, children }: { unread: number; children: ReactNode }) {
  return (
    <Indicator label={unreadLabel(unread)} size={16} color="red" disabled={unread === 0} offset={4}>
      {children}
    </Indicator>
  );
}

/**
 * The button itself, as an element (not a component) so that a popover's target can wrap it directly.
 * `aria-haspopup` says what a click opens; a popover's target sets it too.
 */
export function bellButton({
  unread,
  opened,
  onClick,
  ref,
  onIntent,
}: {
  unread: number;
  opened: boolean;
  onClick: () => void;
  ref?: Ref<HTMLButtonElement>;
  /** Called when the pointer or focus reaches the button: a chance to load what a click opens. */
  onIntent?: () => void;
}): ReactElement {
  return (
    <ActionIcon
      ref={ref}
      variant="subtle"
      size="lg"
      radius="md"
      aria-label={bellLabel(unread)}
      aria-haspopup="dialog"
      aria-expanded={opened}
      onClick={onClick}
      onPointerEnter={onIntent}
      onFocus={onIntent}
    >
      <IconBell size={20} />
    </ActionIcon>
  );
}
