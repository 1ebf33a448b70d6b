/**
 * One notification in a list (the bell's panel and /notifications): its title, one line of its body, how
 * long ago, unread marked. Activating it marks it read and opens its link (a path of the web through the
 * router, with its query string and hash; an https URL in a new tab).
 */
import { Group, Indicator, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import type { Notification } from '@starlight/shared';
import { useNavigate } from '@tanstack/react-router';
import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime';
import classes from './notifications.module.css';

dayjs.extend(relativeTime);

/** "3 minutes ago", with the exact time in the title attribute. */
export function timeAgo(iso: string): string {
  return dayjs(iso).fromNow();
}

/** Opens `link`: a web path through the router (keeping `?query` and `#hash`), an https URL in a new tab. */
export function useOpenLink(): (link: string) => void {
  const navigate = useNavigate();
  return (link) => {
    if (link.startsWith('/')) void navigate({ href: link });
    else window.open(link, '_blank', 'noopener,noreferrer');
  };
}

export function NotificationItem({
  notification: n,
  onOpen,
  lines = 1,
}: {
  notification: Notification;
  /** Called when the member activates it (after which its link opens, when it has one). */
  onOpen: (n: Notification) => void;
  /** Lines of the body shown (the page shows more). */
  lines?: number;
}) {
  const open = useOpenLink();
  return (
    <UnstyledButton
      className={classes.item}
      data-unread={!n.read || undefined}
      onClick={() => {
        onOpen(n);
        if (n.link) open(n.link);
      }}
    >
      <Group wrap="nowrap" align="flex-start" gap="sm">
        <Indicator size={8} color="blue" disabled={n.read} position="middle-start" offset={-2} mt={8} />
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text size="sm" fw={n.read ? 500 : 700} truncate>
              {!n.read && <VisuallyHidden>Unread: </VisuallyHidden>}
              {n.title}
            </Text>
            <Text size="xs" c="dimmed" style={{ flexShrink: 0 }} title={new Date(n.createdAt).toLocaleString('en-GB')}>
              {timeAgo(n.createdAt)}
            </Text>
          </Group>
          <Text size="xs" c="dimmed" lineClamp={lines}>
            {n.body}
          </Text>
        </Stack>
      </Group>
    </UnstyledButton>
  );
}
