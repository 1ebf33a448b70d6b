/**
 * /loginlink/{token} (DESIGN §8): the sign-in link mailed when the sign-in limits stopped a right
 * password. The page signs in with it as it opens (once: a link is single use) and enters the app like a
 * sign-in. A link that does not work (malformed, unknown, used, expired: the server's 400) says so in
 * words with the next step, never the raw validation message.
 */
import { Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { mailToken } from '@starlight/shared';
import { useParams } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { ApiError } from '../../../lib/api.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { useLoginLink } from '../api/login-link.ts';
import { useEnterApp } from '../hooks/use-enter-app.ts';
import { ProblemCard } from './ResultCard.tsx';

/** What a member reads for a sign-in link that does not work. */
export const BAD_LOGIN_LINK = 'This sign-in link is invalid, has expired or has already been used.';

export function LoginLinkPage() {
  const { token = '' } = useParams({ strict: false }) as { token?: string };
  const wellFormed = mailToken.safeParse(token).success;
  const follow = useLoginLink();
  const enterApp = useEnterApp();
  const asked = useRef(false);
  useEffect(() => {
    // Once per page: a second request would only report the link used.
    if (asked.current || !wellFormed) return;
    asked.current = true;
    follow.mutate({ token }, { onSuccess: (res) => void enterApp(res) });
  }, [token, wellFormed, follow, enterApp]);

  const failed = !wellFormed || follow.isError;
  const badLink = !wellFormed || (follow.error instanceof ApiError && follow.error.status === 400);

  return (
    <Center mih="60vh">
      <Card withBorder radius="md" p="xl" w="100%" maw={480}>
        <Stack>
          <Title order={2}>Sign in</Title>
          {failed ? (
            <ProblemCard
              title="Not signed in"
              message={badLink ? BAD_LOGIN_LINK : errorMessage(follow.error)}
              advice="Sign in again with your password; if the sign-in limits stop you, we mail you a new link."
              action={{ to: '/login', label: 'Sign in' }}
            />
          ) : (
            <Group gap="sm">
              <Loader size="sm" />
              <Text>Signing you in…</Text>
            </Group>
          )}
        </Stack>
      </Card>
    </Center>
  );
}
