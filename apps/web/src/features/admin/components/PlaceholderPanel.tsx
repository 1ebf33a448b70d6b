/** SPEC's Guild Control tab, which SPEC itself leaves empty: a short panel that says so, never a blank one. */
import { Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconRocket } from '@tabler/icons-react';

/** The placeholder panel of a tab SPEC leaves empty, titled `title`. */
export function PlaceholderPanel({ title }: { title: string }) {
  return (
    <Card withBorder radius="md" p={{ base: 'sm', sm: 'lg' }}>
      <Group gap="md" wrap="nowrap" align="flex-start">
        <IconRocket size={32} stroke={1.4} color="var(--mantine-color-yellow-4)" aria-hidden />
        <Stack gap={4}>
          <Title order={3}>{title}</Title>
          <Text c="dimmed">Guilds are not part of this beta yet: this tab is a placeholder for their controls.</Text>
        </Stack>
      </Group>
    </Card>
  );
}
