/**
 * /notifications (DESIGN §11.3): the member's whole list, newest first, a page at a time, with an "Unread
 * only" filter; opening one marks it read and follows its link; "Mark all as read". Signed-in only.
 */
import { Alert, Button, Card, Group, Loader, Stack, Switch, Text, Title } from '@mantine/core';
import type { Notification } from '@starlight/shared';
import { IconChecks } from '@tabler/icons-react';
import { useState } from 'react';
import { Paging } from '../../../components/Paging.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useRequireSession } from '../../../lib/use-require-session.ts';
import { useMarkRead, useNotifications } from '../api/notifications.ts';
import { NotificationItem } from './NotificationItem.tsx';
import classes from './notifications.module.css';

const LIMIT = 10;

export function NotificationsPage() {
  const user = useRequireSession();
  const [page, setPage] = useState(1);
  const [unreadOnly, setUnreadOnly] = useState(false);
  const list = useNotifications({ paging: { limit: LIMIT, page }, ...(unreadOnly ? { unreadOnly } : {}) }, !!user);
  const mark = useMarkRead();
  if (!user) return <Loader m="xl" />;

  const unread = list.data?.unread ?? 0;
  const markAll = async () => {
    try {
      toastSuccess((await mark.mutateAsync(undefined)).message);
    } catch (err) {
      toastError(errorMessage(err));
    }
  };
  const open = (n: Notification) => {
    if (!n.read) mark.mutate([n._id], { onError: (err) => toastError(errorMessage(err)) });
  };

  return (
    <Stack maw={720} mx="auto">
      <Group justify="space-between" align="flex-end">
        <Title order={2}>Notifications</Title>
        <Text size="sm" c="dimmed" aria-live="polite">
          {list.data ? `${unread.toLocaleString('en-GB')} unread` : ''}
        </Text>
      </Group>
      <Card withBorder radius="md" component="section" aria-label="Notifications">
        <Stack>
          <Group justify="space-between">
            <Switch
              label="Unread only"
              checked={unreadOnly}
              onChange={(e) => {
                setUnreadOnly(e.currentTarget.checked);
                setPage(1);
              }}
            />
            <Button
              size="xs"
              variant="light"
              leftSection={<IconChecks size={14} />}
              disabled={unread === 0}
              loading={mark.isPending && mark.variables === undefined}
              onClick={markAll}
            >
              Mark all as read
            </Button>
          </Group>
          {list.isPending ? (
            <Group justify="center" py="lg">
              <Loader size="sm" aria-label="Loading notifications" />
            </Group>
          ) : list.isError ? (
            <Alert color="red" title="Could not load your notifications">
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{errorMessage(list.error)}</Text>
                <Button size="xs" variant="light" color="red" onClick={() => void list.refetch()}>
                  Try again
                </Button>
              </Stack>
            </Alert>
          ) : list.data.notifications.length === 0 ? (
            <Text c="dimmed" ta="center" py="lg">
              {unreadOnly
                ? 'No unread notifications.'
                : 'No notifications yet. Transfers, fills and news will show here.'}
            </Text>
          ) : (
            <Stack gap={4} component="ul" aria-label="Notification list" className={classes.list}>
              {list.data.notifications.map((n) => (
                <li key={n._id}>
                  <NotificationItem notification={n} onOpen={open} lines={3} />
                </li>
              ))}
            </Stack>
          )}
          {list.data && list.data.total > 0 && (
            <Paging page={page} limit={LIMIT} total={list.data.total} onPage={setPage} />
          )}
        </Stack>
      </Card>
    </Stack>
  );
}
