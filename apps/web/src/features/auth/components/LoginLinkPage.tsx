/**
 * /loginlink/{token} (DESIGN §8): the sign-in link mailed when the sign-in limits stopped a right
 * password. The page signs in with it as it opens (once: a link is single use) and enters the app like a
 * sign-in. A link that does not work (malformed, unknown, used, expired: the server's 400) says so in
 * words with the next step, never the raw validation message. An account with a second factor then gives
 * its code on the same card (DESIGN §11.1).
 */
import { Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { MESSAGES, mailToken } from '@starlight/shared';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { MfaCodeStep } from '../../../components/MfaCodeStep.tsx';
import { ApiError } from '../../../lib/api.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError } from '../../../lib/notify.ts';
import { useLoginLink } from '../api/login-link.ts';
import { useLoginMfa } from '../api/login-mfa.ts';
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
  const [mfaToken, setMfaToken] = useState<string | null>(null);
  const loginMfa = useLoginMfa();
  const navigate = useNavigate();
  useEffect(() => {
    // Once per page: a second request would only report the link used.
    if (asked.current || !wellFormed) return;
    asked.current = true;
    follow.mutate(
      { token },
      { onSuccess: (res) => ('mfaRequired' in res ? setMfaToken(res.mfaToken) : void enterApp(res)) },
    );
  }, [token, wellFormed, follow, enterApp]);

  const failed = !wellFormed || follow.isError;
  const badLink = !wellFormed || (follow.error instanceof ApiError && follow.error.status === 400);

  return (
    <Center mih="60vh">
      <Card withBorder radius="md" p="xl" w="100%" maw={480}>
        <Stack>
          <Title order={2}>Sign in</Title>
          {mfaToken !== null ? (
            <MfaCodeStep
              busy={loginMfa.isPending}
              onBack={() => void navigate({ to: '/login' })}
              onSubmit={async (code) => {
                try {
                  const res = await loginMfa.mutateAsync({ mfaToken, code });
                  if ('token' in res) await enterApp(res);
                } catch (err) {
                  const message = errorMessage(err);
                  toastError(message);
                  if (message === MESSAGES.mfaTokenInvalid) await navigate({ to: '/login' });
                }
              }}
            />
          ) : failed ? (
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
