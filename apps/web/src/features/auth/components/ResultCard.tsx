/**
 * The outcome of the verify and reset pages. A success says what happened and where the page goes in 5
 * seconds (the dashboard when still signed in, sign-in otherwise: the words match the redirect). A link
 * that does not work says so in words, with what to do next and a button there; it does not move on by
 * itself, so the member can read it.
 */
import { Alert, Anchor, Button, Text } from '@mantine/core';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { NextPage } from '../hooks/use-redirect-after.ts';

const PLACE: Record<NextPage, string> = { '/dashboard': 'your dashboard', '/login': 'sign in' };

/** A success: `message`, then "Taking you to {place} in 5 seconds…" with a link there. */
export function DoneCard({ title, message, next }: { title: string; message: string; next: NextPage }) {
  return (
    <Alert color="teal" title={title} icon={<IconCircleCheck />} role="status">
      <Text size="sm">{message}</Text>
      <Text size="sm" mt="xs">
        Taking you to{' '}
        <Anchor component={Link} to={next} size="sm" c="inherit" underline="always">
          {PLACE[next]}
        </Anchor>{' '}
        in 5 seconds…
      </Text>
    </Alert>
  );
}

/** A failure: what happened (`message`), what to do (`advice`) and a button to where it is done. */
export function ProblemCard({
  title,
  message,
  advice,
  action,
}: {
  title: string;
  message: string;
  advice: string;
  action: { to: '/login' | '/userbank'; label: string };
}) {
  return (
    <>
      <Alert color="red" title={title} icon={<IconCircleX />} role="alert">
        <Text size="sm">{message}</Text>
        <Text size="sm" mt="xs">
          {advice}
        </Text>
      </Alert>
      <Button component={Link} to={action.to}>
        {action.label}
      </Button>
    </>
  );
}
