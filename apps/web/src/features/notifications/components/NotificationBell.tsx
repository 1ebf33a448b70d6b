/**
 * The header's bell (DESIGN §11.3) for a signed-in member: the unread count on it, and a panel of the
 * newest notifications (a popover on a wide screen, a full-screen dialog on a phone) with "Mark all as
 * read" and "See all" (/notifications). Opening one marks it read and follows its link. New ones arrive
 * over the member's socket (`applyPushedNotification`).
 */
import { ActionIcon, Button, Divider, Group, Indicator, Loader, Modal, Popover, Stack, Text } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import type { Notification } from '@starlight/shared';
import { IconBell } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { errorMessage } from '../../../lib/errors.ts';
import { clearToasts, toastError } from '../../../lib/notify.ts';
import { useBellNotifications, useMarkRead } from '../api/notifications.ts';
import { NotificationItem } from './NotificationItem.tsx';
import classes from './notifications.module.css';

/** The bell's count: "99+" past 99. */
export function unreadLabel(unread: number): string {
  return unread > 99 ? '99+' : String(unread);
}

function BellPanel({ onClose, titled }: { onClose: () => void; titled: boolean }) {
  const list = useBellNotifications();
  const mark = useMarkRead();
  const navigate = useNavigate();
  const unread = list.data?.unread ?? 0;
  const markAll = async () => {
    try {
      await mark.mutateAsync(undefined);
    } catch (err) {
      toastError(errorMessage(err));
    }
  };
  const open = (n: Notification) => {
    if (!n.read) mark.mutate([n._id], { onError: (err) => toastError(errorMessage(err)) });
    if (n.link) onClose();
  };
  return (
    <Stack gap="xs">
      <Group justify={titled ? 'space-between' : 'flex-end'} wrap="nowrap">
        {titled && <Text fw={700}>Notifications</Text>}
        <Button size="compact-sm" variant="subtle" disabled={unread === 0} loading={mark.isPending} onClick={markAll}>
          Mark all as read
        </Button>
      </Group>
      <Divider />
      {list.isPending ? (
        <Loader size="sm" mx="auto" my="md" aria-label="Loading notifications" />
      ) : list.isError ? (
        <Text size="sm" c="red" role="alert">
          {errorMessage(list.error)}
        </Text>
      ) : list.data.notifications.length === 0 ? (
        <Text size="sm" c="dimmed" ta="center" py="md">
          Nothing yet. Transfers, fills and news will show here.
        </Text>
      ) : (
        <Stack gap={2} component="ul" aria-label="Newest notifications" className={classes.list}>
          {list.data.notifications.map((n) => (
            <li key={n._id}>
              <NotificationItem notification={n} onOpen={open} />
            </li>
          ))}
        </Stack>
      )}
      <Divider />
      <Button
        variant="light"
        onClick={() => {
          onClose();
          void navigate({ to: '/notifications' });
        }}
      >
        See all
      </Button>
    </Stack>
  );
}

export function NotificationBell() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const phone = useMediaQuery('(max-width: 61.99375em)');
  const list = useBellNotifications();
  const unread = list.data?.unread ?? 0;
  const label = unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
  const button = (
    <ActionIcon
      variant="subtle"
      size="lg"
      radius="md"
      aria-label={label}
      aria-expanded={opened}
      onClick={() => {
        if (!opened) clearToasts();
        toggle();
      }}
    >
      <IconBell size={20} />
    </ActionIcon>
  );
  // The count sits on the button; the popover's ARIA attributes go on the button itself.
  const counted = (target: ReactNode) => (
    <Indicator label={unreadLabel(unread)} size={16} color="red" disabled={unread === 0} offset={4}>
      {target}
    </Indicator>
  );
  if (phone) {
    return (
      <>
        {counted(button)}
        <Modal opened={opened} onClose={close} fullScreen title="Notifications" withinPortal>
          <BellPanel onClose={close} titled={false} />
        </Modal>
      </>
    );
  }
  return counted(
    <Popover opened={opened} onChange={(o) => !o && close()} width={380} position="bottom-end" shadow="md" trapFocus>
      <Popover.Target>{button}</Popover.Target>
      <Popover.Dropdown aria-label="Notifications" role="dialog">
        <BellPanel onClose={close} titled />
      </Popover.Dropdown>
    </Popover>,
  );
}
