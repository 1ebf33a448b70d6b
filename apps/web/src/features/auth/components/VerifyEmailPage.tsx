/**
 * SPEC §2 /verifyemail/{token}: verifies the e-mail as the page opens, shows the result and opens
 * /dashboard 5 seconds later. A success clears the stored session (SPEC §4), so the next sign-in shows
 * the verified address.
 */
import { Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useParams } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { errorMessage } from '../../../lib/errors.ts';
import { useVerifyEmail } from '../api/verify-email.ts';
import { useRedirectAfter } from '../hooks/use-redirect-after.ts';
import { ResultCard } from './ResultCard.tsx';

export function VerifyEmailPage() {
  const { token } = useParams({ strict: false }) as { token?: string };
  const verify = useVerifyEmail();
  const asked = useRef(false);
  useEffect(() => {
    // Once per page: a token is single use, so a second request would only report it used.
    if (asked.current || !token) return;
    asked.current = true;
    verify.mutate({ token });
  }, [token, verify]);
  useRedirectAfter(verify.isSuccess || verify.isError);

  return (
    <Center mih="60vh">
      <Card withBorder radius="md" p="xl" w="100%" maw={480}>
        <Stack>
          <Title order={2}>Verify e-mail</Title>
          {verify.isSuccess && (
            <ResultCard ok title="E-mail verified" message={`${verify.data.message}. Please sign in again.`} />
          )}
          {verify.isError && <ResultCard ok={false} title="Not verified" message={errorMessage(verify.error)} />}
          {!verify.isSuccess && !verify.isError && (
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
