/**
 * One row of a list of a member's credentials (API keys, withdrawal addresses): an icon, a title line
 * (`title`: the name and its badges), the details beneath (`children`, wrapped, never cut) and an action
 * button on the right that never shrinks.
 */
import { Button, Group, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

export function CredentialRow({
  label,
  icon,
  title,
  children,
  action,
}: {
  /** The row's accessible name. */
  label: string;
  icon: ReactNode;
  title: ReactNode;
  children: ReactNode;
  /** The red button's words and what it does; none: no button. */
  action?: { label: string; onClick: () => void };
}) {
  return (
    <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm" role="listitem" aria-label={label}>
      <Group gap="sm" wrap="nowrap" align="flex-start" style={{ minWidth: 0 }}>
        <span aria-hidden style={{ flexShrink: 0, marginTop: 2, display: 'inline-flex' }}>
          {icon}
        </span>
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Group gap="xs">{title}</Group>
          {children}
        </Stack>
      </Group>
      {action && (
        <Button size="xs" variant="light" color="red" onClick={action.onClick} style={{ flexShrink: 0 }}>
          {action.label}
        </Button>
      )}
    </Group>
  );
}
