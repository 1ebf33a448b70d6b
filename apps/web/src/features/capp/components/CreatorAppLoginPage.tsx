/**
 * SPEC §2 /loginCApp/{authId}: a creator app's consent page (DESIGN §7). It shows what the app asks (the
 * collection, the app's origin, its message and the server's), and the member signs in there to grant it:
 * the answer is the app's URL with a single-use code, where the browser goes; no session is stored.
 * Cancel goes to the app's cancel URL. If the request cannot be read, the page is only what happened, in
 * words, and what to do (go back to the app and start again). The browser leaves only for a URL
 * `leaveForApp` accepts (https:, or http: on loopback); any other is shown as an error and not opened.
 * An account with a second factor (DESIGN §11.1) then gives its code on the same card.
 */
import {
  Button,
  Card,
  Center,
  Code,
  Divider,
  Group,
  Loader,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { loginRequest, MESSAGES } from '@starlight/shared';
import { IconAlertTriangle, IconApps } from '@tabler/icons-react';
import { Link, useParams } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { MfaCodeStep } from '../../../components/MfaCodeStep.tsx';
import { ApiError } from '../../../lib/api.ts';
import { leaveForApp } from '../../../lib/app-url.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { schemaValidate } from '../../../lib/form.ts';
import { toastError } from '../../../lib/notify.ts';
import { type CappLoginRequest, useCappLogin, useCappLoginMfa } from '../api/capp-login.ts';
import { useAuthRequest } from '../api/get-auth-request.ts';

/**
 * Why a consent request cannot be read, in words (never the raw `"requestId" contains an invalid value`):
 * a malformed or unknown request (400, 404), or one used or expired (409, the server's reason); any
 * other failure (the network) as its message.
 */
function requestProblem(err: unknown): string {
  if (!(err instanceof ApiError)) return errorMessage(err);
  if (err.status === 400 || err.status === 404) return 'This sign-in link is invalid.';
  if (err.message === 'Authorization request already used') return 'This sign-in link has already been used.';
  if (err.message === 'Authorization request expired') return 'This sign-in link has expired.';
  return err.message;
}

/**
 * Where the browser goes next (the app's callback or cancel URL): a full navigation off this site, or,
 * for a URL the browser may not open, an error toast and no navigation.
 */
function leaveFor(url: string): void {
  const problem = leaveForApp(url);
  if (problem !== null) toastError(problem);
}

/** `otherSignIns`: the sign-ins beside the password form (passkey, wallet), for request `requestId`. */
export function CreatorAppLoginPage({
  otherSignIns,
}: {
  otherSignIns?: (requestId: string, onMfaRequired: (mfaToken: string) => void) => ReactNode;
} = {}) {
  const { authId = '' } = useParams({ strict: false }) as { authId?: string };
  const request = useAuthRequest(authId);
  const login = useCappLogin();
  const loginMfa = useCappLoginMfa();
  const [mfaToken, setMfaToken] = useState<string | null>(null);
  // After success the browser is on its way to the app: nothing more to submit or cancel.
  const busy = login.isPending || loginMfa.isPending || loginMfa.isSuccess || (login.isSuccess && mfaToken === null);
  const submit = async (body: CappLoginRequest) => {
    try {
      const res = await login.mutateAsync(body);
      if ('mfaRequired' in res) setMfaToken(res.mfaToken);
      else leaveFor(res.url);
    } catch (err) {
      toastError(errorMessage(err));
    }
  };
  const submitCode = async (code: string) => {
    if (mfaToken === null) return;
    try {
      leaveFor((await loginMfa.mutateAsync({ mfaToken, code, cAppAuthRequest: authId })).url);
    } catch (err) {
      const message = errorMessage(err);
      toastError(message);
      if (message === MESSAGES.mfaTokenInvalid) back();
    }
  };
  const back = () => {
    setMfaToken(null);
    login.reset();
  };

  if (request.isPending) {
    return (
      <Center mih="60vh">
        <Loader aria-label="Loading the app's request" />
      </Center>
    );
  }
  if (request.isError) {
    return (
      <Center mih="60vh">
        <Card withBorder radius="md" p="xl" w="100%" maw={460}>
          <Stack>
            <Group gap="sm" wrap="nowrap" align="flex-start" role="alert">
              <IconAlertTriangle color="var(--mantine-color-red-6)" aria-hidden style={{ flexShrink: 0 }} />
              <Text fw={500}>{requestProblem(request.error)}</Text>
            </Group>
            <Text size="sm">
              Go back to the app and choose to sign in with Starlight again: it will give you a new link.
            </Text>
            <Button component={Link} to="/" variant="default">
              Go to the Starlight home page
            </Button>
          </Stack>
        </Card>
      </Center>
    );
  }
  const data = request.data.data;
  return (
    <Center mih="70vh">
      <Card withBorder radius="md" p={{ base: 'md', xs: 'xl' }} w="100%" maw={460}>
        <Stack>
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <IconApps
              size={26}
              color="var(--mantine-color-blue-4)"
              aria-hidden
              style={{ flexShrink: 0, marginTop: 4 }}
            />
            <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
              Sign in to {data.collectionName}
            </Title>
          </Group>
          <Text size="sm">
            Requested by <Code>{data.cappUrl}</Code>
          </Text>
          {data.customMessage !== '' && (
            <Paper withBorder radius="sm" p="sm">
              <Text size="xs" c="dimmed" mb={4}>
                Message from the app
              </Text>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {data.customMessage}
              </Text>
            </Paper>
          )}
          <Text size="sm">{data.requestMessage}</Text>
          {mfaToken !== null ? (
            <MfaCodeStep
              busy={loginMfa.isPending || loginMfa.isSuccess}
              onSubmit={submitCode}
              onBack={back}
              submitLabel="Verify and allow"
            />
          ) : (
            <>
              <ConsentForm requestId={authId} busy={busy} onSubmit={submit} />
              {otherSignIns && (
                <>
                  <Divider label="or" labelPosition="center" />
                  {otherSignIns(authId, setMfaToken)}
                </>
              )}
            </>
          )}
          <Button type="button" variant="subtle" color="gray" disabled={busy} onClick={() => leaveFor(data.cancelUrl)}>
            Cancel
          </Button>
        </Stack>
      </Card>
    </Center>
  );
}

/** Nickname or e-mail and password; Enter submits. */
function ConsentForm({
  requestId,
  busy,
  onSubmit,
}: {
  requestId: string;
  busy: boolean;
  onSubmit: (body: CappLoginRequest) => Promise<void>;
}) {
  const form = useForm({
    mode: 'controlled',
    initialValues: { nickOrEmail: '', password: '' },
    validate: schemaValidate(loginRequest),
  });
  const submit = form.onSubmit((values) =>
    onSubmit({ nickOrEmail: values.nickOrEmail.trim(), password: values.password, cAppAuthRequest: requestId }),
  );

  return (
    <form onSubmit={submit} noValidate aria-label="Sign in for the app">
      <Stack gap="sm">
        <TextInput label="Nickname or e-mail" autoComplete="username" required {...form.getInputProps('nickOrEmail')} />
        <PasswordInput label="Password" autoComplete="current-password" required {...form.getInputProps('password')} />
        <Button type="submit" mt="xs" loading={busy}>
          Sign in and allow
        </Button>
      </Stack>
    </form>
  );
}
