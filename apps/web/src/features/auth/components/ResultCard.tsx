/** The outcome card of the verify and reset pages: an icon, the server's message and the redirect notice. */
import { Alert, Anchor, Text } from '@mantine/core';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';

export function ResultCard({ ok, title, message }: { ok: boolean; title: string; message: string }) {
  const Icon = ok ? IconCircleCheck : IconCircleX;
  return (
    <Alert color={ok ? 'teal' : 'red'} title={title} icon={<Icon />} role="status">
      <Text size="sm">{message}</Text>
      <Text size="sm" mt="xs">
        Taking you to{' '}
        <Anchor component={Link} to="/dashboard" size="sm" c="inherit" underline="always">
          your dashboard
        </Anchor>{' '}
        in 5 seconds…
      </Text>
    </Alert>
  );
}
