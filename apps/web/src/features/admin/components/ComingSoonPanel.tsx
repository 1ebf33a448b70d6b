/** A SPEC admin tab not built yet: a short panel, never a blank one. */
import { Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconRocket } from '@tabler/icons-react';

/** `placeholder`: a tab SPEC itself leaves empty (Guild Control), said as such rather than "coming soon". */
export function ComingSoonPanel({ title, placeholder = false }: { title: string; placeholder?: boolean }) {
  return (
    <Card withBorder radius="md" p={{ base: 'sm', sm: 'lg' }} data-testid="admin-coming-soon">
      <Group gap="md" wrap="nowrap" align="flex-start">
        <IconRocket size={32} stroke={1.4} color="var(--mantine-color-yellow-4)" aria-hidden />
        <Stack gap={4}>
          <Title order={3}>{title}</Title>
          <Text c="dimmed">
            {placeholder
              ? 'Guilds are not part of this beta yet: this tab is a placeholder for their controls.'
              : 'This admin tool is coming soon. We are building it right now.'}
          </Text>
        </Stack>
      </Group>
    </Card>
  );
}
