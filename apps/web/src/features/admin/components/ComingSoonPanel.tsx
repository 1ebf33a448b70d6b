/** A SPEC admin tab not built yet: a short panel, never a blank one. */
import { Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconRocket } from '@tabler/icons-react';

export function ComingSoonPanel({ title }: { title: string }) {
  return (
    <Card withBorder radius="md" p={{ base: 'sm', sm: 'lg' }} data-testid="admin-coming-soon">
      <Group gap="md" wrap="nowrap" align="flex-start">
        <IconRocket size={32} stroke={1.4} color="var(--mantine-color-yellow-4)" aria-hidden />
        <Stack gap={4}>
          <Title order={3}>{title}</Title>
          <Text c="dimmed">This admin tool is coming soon. We are building it right now.</Text>
        </Stack>
      </Group>
    </Card>
  );
}
