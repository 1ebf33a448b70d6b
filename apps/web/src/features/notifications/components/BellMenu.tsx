/**
 * The bell's panel of the newest notifications (DESIGN §11.3): a popover on a wide screen, a full-screen
 * dialog on a phone, with "Mark all as read" and "See all" (/notifications). Opening one marks it read and
 * follows its link. Loaded with the bell's first click (`NotificationBell`), with the popover's code.
 */
import { Button, Divider, Group, Loader, Modal, Popover, Stack, Text } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import type { Notification } from '@starlight/shared';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { errorMessage } from '../../../lib/errors.ts';
import { clearToasts, toastError } from '../../../lib/notify.ts';
import { useBellNotifications, useMarkRead } from '../api/notifications.ts';
import { BellCount, bellButton } from './BellButton.tsx';
import { NotificationItem } from './NotificationItem.tsx';
import classes from './notifications.module.css';

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

/**
 * The bell with its panel. `isOpenedAtFirst`: the click that loaded this module opens the panel once it is
 * drawn, from this button (which takes the focus the first one had).
 */
export function BellMenu({ isOpenedAtFirst }: { isOpenedAtFirst: boolean }) {
  const [opened, { open, toggle, close }] = useDisclosure(false);
  const phone = useMediaQuery('(max-width: 61.99375em)');
  const list = useBellNotifications();
  const unread = list.data?.unread ?? 0;
  const buttonRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!isOpenedAtFirst) return;
    buttonRef.current?.focus();
    open();
  }, [isOpenedAtFirst, open]);
  const button = bellButton({
    unread,
    opened,
    ref: buttonRef,
    onClick: () => {
      if (!opened) clearToasts();
      toggle();
    },
  });
  // The count sits on the button; the popover's ARIA attributes go on the button itself.
  if (phone) {
    return (
      <>
        <BellCount unread={unread}>{button}</BellCount>
        <Modal opened={opened} onClose={close} fullScreen title="Notifications" withinPortal>
          <BellPanel onClose={close} titled={false} />
        </Modal>
      </>
    );
  }
  return (
    <BellCount unread={unread}>
      <Popover opened={opened} onChange={(o) => !o && close()} width={380} position="bottom-end" shadow="md" trapFocus>
        <Popover.Target>{button}</Popover.Target>
        <Popover.Dropdown aria-label="Notifications" role="dialog">
          <BellPanel onClose={close} titled />
        </Popover.Dropdown>
      </Popover>
    </BellCount>
  );
}
