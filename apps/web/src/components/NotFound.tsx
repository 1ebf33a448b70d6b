/**
 * The page for an address no route matches: it says the page does not exist and links home, and to the
 * dashboard when signed in. Routes SPEC §2 names but that are not built yet show ComingSoon.
 */
import { Button, Center, Group, Stack, Text, Title } from '@mantine/core';
import { IconMapPinOff } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useSession } from '../lib/session.ts';

export function NotFound() {
  const signedIn = useSession((s) => s.token !== null);
  return (
    <Center mih="60vh">
      <Stack align="center" gap="sm" maw={420} ta="center">
        <IconMapPinOff size={48} stroke={1.4} color="var(--mantine-color-yellow-4)" aria-hidden />
        <Title order={1} size="h2">
          Page not found
        </Title>
        <Text c="dimmed">This page does not exist. The link may be mistyped or out of date.</Text>
        <Group justify="center" gap="sm">
          <Button component={Link} to="/" variant={signedIn ? 'light' : 'filled'}>
            Go home
          </Button>
          {signedIn && (
            <Button component={Link} to="/dashboard">
              Go to your dashboard
            </Button>
          )}
        </Group>
      </Stack>
    </Center>
  );
}
