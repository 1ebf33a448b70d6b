/**
 * One sign-in session as Settings and User Control show it (DESIGN §11.1): an icon, the device with a badge
 * (`badge`: "This device", "Two-factor"), the address, and when it signed in and was last seen.
 */
import { Badge, Group, Stack, Text } from '@mantine/core';
import { formatDate, type SessionInfo } from '@starlight/shared';
import { IconDeviceDesktop } from '@tabler/icons-react';

export function SessionSummary({ session, badge }: { session: SessionInfo; badge?: { label: string; color: string } }) {
  return (
    <Group gap="sm" wrap="nowrap" align="flex-start" style={{ minWidth: 0 }}>
      <IconDeviceDesktop size={20} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
      <Stack gap={2} style={{ minWidth: 0 }}>
        <Group gap="xs">
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {session.device}
          </Text>
          {badge && (
            <Badge size="sm" variant="light" color={badge.color}>
              {badge.label}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {session.address}
        </Text>
        <Text size="xs" c="dimmed">
          Signed in {formatDate(session.createdAt)} · last seen {formatDate(session.lastSeenAt)}
        </Text>
      </Stack>
    </Group>
  );
}
