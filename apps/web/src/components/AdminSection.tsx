/** A section of an Admin Console tab: a bordered card whose heading names it, something beside the title, the content. */
import { Card, Group, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function AdminSection({
  id,
  title,
  aside,
  children,
  gap = 'md',
}: {
  /** The heading's id (the section's accessible name). */
  id: string;
  title: string;
  aside?: ReactNode;
  children: ReactNode;
  gap?: 'sm' | 'md';
}) {
  return (
    <Card withBorder radius="md" p={{ base: 'sm', sm: 'lg' }} component="section" aria-labelledby={id}>
      <Stack gap={gap}>
        <Group justify="space-between" gap="xs">
          <Title order={3} id={id}>
            {title}
          </Title>
          {aside}
        </Group>
        {children}
      </Stack>
    </Card>
  );
}
