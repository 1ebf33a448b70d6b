/** A chart card of /analytics: a title and subtitle on the left, the latest figures on the right, the chart below. */
import { Card, Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function ChartCard({
  label,
  title,
  subtitle,
  figures,
  children,
}: {
  /** The section's accessible name. */
  label: string;
  title: string;
  subtitle: string;
  figures?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card withBorder radius="md" component="section" aria-label={label}>
      <Group justify="space-between" align="flex-start" mb="sm" gap="xs">
        <div>
          <Title order={3} size="h4">
            {title}
          </Title>
          <Text size="xs" c="dimmed">
            {subtitle}
          </Text>
        </div>
        {figures}
      </Group>
      {children}
    </Card>
  );
}
