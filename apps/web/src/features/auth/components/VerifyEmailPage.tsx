/**
 * SPEC §2 /verifyemail/{token}: verifies the e-mail as the page opens and shows the result. Verifying
 * keeps the session (DESIGN §8: only a password or role change, a reset, a deactivation and logout end
 * sessions): a signed-in member's stored user is refreshed and the page opens /dashboard 5 seconds later;
 * a signed-out one is taken to sign in, and the page says which. A link that does not work (malformed,
 * unknown, used, expired: the server's 400) says so in words with the next step, never the raw
 * validation message.
 */
import { Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { mailToken } from '@starlight/shared';
import { useParams } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { ApiError } from '../../../lib/api.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { useSession } from '../../../lib/session.ts';
import { useVerifyEmail } from '../api/verify-email.ts';
import { useRedirectAfter } from '../hooks/use-redirect-after.ts';
import { DoneCard, ProblemCard } from './ResultCard.tsx';

/** What a member reads for a verify link that does not work. */
export const BAD_VERIFY_LINK = 'This verification link is invalid or has already been used.';

export function VerifyEmailPage() {
  const { token = '' } = useParams({ strict: false }) as { token?: string };
  const signedIn = useSession((s) => s.token !== null);
  const wellFormed = mailToken.safeParse(token).success;
  const verify = useVerifyEmail();
  const asked = useRef(false);
  useEffect(() => {
    // Once per page: a token is single use, so a second request would only report it used.
    if (asked.current || !wellFormed) return;
    asked.current = true;
    verify.mutate({ token });
  }, [token, wellFormed, verify]);
  const next = signedIn ? '/dashboard' : '/login';
  useRedirectAfter(verify.isSuccess ? next : null);

  const failed = !wellFormed || verify.isError;
  const badLink = !wellFormed || (verify.error instanceof ApiError && verify.error.status === 400);

  return (
    <Center mih="60vh">
      <Card withBorder radius="md" p="xl" w="100%" maw={480}>
        <Stack>
          <Title order={2}>Verify e-mail</Title>
          {verify.isSuccess && <DoneCard title="E-mail verified" message={`${verify.data.message}.`} next={next} />}
          {failed && (
            <ProblemCard
              title="E-mail not verified"
              message={badLink ? BAD_VERIFY_LINK : errorMessage(verify.error)}
              advice={
                signedIn
                  ? 'Ask for a new link with Verify Email in My Info on your account page.'
                  : 'Sign in and ask for a new one from your account page.'
              }
              action={signedIn ? { to: '/userbank', label: 'Go to my account' } : { to: '/login', label: 'Sign in' }}
            />
          )}
          {!verify.isSuccess && !failed && (
            <Group gap="sm">
              <Loader size="sm" />
              <Text>Checking your link…</Text>
            </Group>
          )}
        </Stack>
      </Card>
    </Center>
  );
}
