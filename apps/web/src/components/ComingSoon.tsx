/** A SPEC route not built yet: a clear page inside the shell, never a blank one. */
import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconRocket } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';

export function ComingSoon({ title }: { title: string }) {
  return (
    <Center mih="60vh">
      <Stack align="center" gap="sm" maw={420} ta="center">
        <IconRocket size={48} stroke={1.4} color="var(--mantine-color-yellow-4)" />
        <Title order={2}>{title}</Title>
        <Text c="dimmed">This part of Starlight is coming soon. We are building it right now.</Text>
        <Button component={Link} to="/dashboard" variant="light">
          Go to your account
        </Button>
      </Stack>
    </Center>
  );
}
