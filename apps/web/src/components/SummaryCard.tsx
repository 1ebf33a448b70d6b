/** A dashboard summary card: a title, a link to the page with the whole story, and its content. */
import { Anchor, Card, Group, Title } from '@mantine/core';
import { Link, type LinkProps } from '@tanstack/react-router';
import type { ReactNode } from 'react';

export function SummaryCard({
  title,
  link,
  linkText,
  children,
}: {
  title: string;
  /** Where the whole list lives (a route and its search). */
  link: Pick<LinkProps, 'to' | 'search'>;
  linkText: string;
  children: ReactNode;
}) {
  const id = `summary-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <Card withBorder radius="md" component="section" aria-labelledby={id}>
      <Group justify="space-between" mb="sm" gap="xs" wrap="nowrap">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        <Anchor component={Link} {...link} size="sm">
          {linkText}
        </Anchor>
      </Group>
      {children}
    </Card>
  );
}
