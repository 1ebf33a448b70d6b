/**
 * SPEC §2 login: by nickname or e-mail and password, or with a passkey (DESIGN §11.1) or a wallet. For an
 * account with a second factor the same screen then asks for the authenticator app's code or a recovery code.
 */
import { Anchor, Button, Card, Center, Divider, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { MESSAGES } from '@starlight/shared';
import { Link } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { MfaCodeStep } from '../../../components/MfaCodeStep.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError } from '../../../lib/notify.ts';
import { useLogin } from '../api/login.ts';
import { useLoginMfa } from '../api/login-mfa.ts';
import { useEnterApp } from '../hooks/use-enter-app.ts';
import { AuthCard } from './AuthCard.tsx';
import { PasskeyButton } from './PasskeyButton.tsx';
import { WalletButton } from './WalletButton.tsx';

const ForgotPasswordModal = lazy(() =>
  import('./ForgotPasswordModal.tsx').then((m) => ({ default: m.ForgotPasswordModal })),
);

export function LoginPage() {
  const enterApp = useEnterApp();
  const login = useLogin();
  const form = useForm({ mode: 'controlled', initialValues: { nickOrEmail: '', password: '' } });
  const filled = form.values.nickOrEmail.trim() !== '' && form.values.password !== '';
  // The forgot-password dialog loads with its first opening.
  const [forgotOpened, setForgotOpened] = useState<boolean | null>(null);
  // The second step's token once the password (or the wallet) was right for an account with a second factor.
  const [mfaToken, setMfaToken] = useState<string | null>(null);
  const loginMfa = useLoginMfa();

  const submit = form.onSubmit(async (values) => {
    try {
      const res = await login.mutateAsync({ nickOrEmail: values.nickOrEmail.trim(), password: values.password });
      if ('mfaRequired' in res) setMfaToken(res.mfaToken);
      else await enterApp(res);
    } catch (err) {
      toastError(errorMessage(err));
    }
  });

  const submitCode = async (code: string) => {
    if (mfaToken === null) return;
    try {
      const res = await loginMfa.mutateAsync({ mfaToken, code });
      if ('token' in res) await enterApp(res);
    } catch (err) {
      const message = errorMessage(err);
      toastError(message);
      // A sign-in that expired or took too many wrong codes starts again with the password.
      if (message === MESSAGES.mfaTokenInvalid) setMfaToken(null);
    }
  };

  if (mfaToken !== null) {
    return (
      <Center mih="70vh">
        <Card withBorder radius="md" p="xl" w="100%" maw={420}>
          <Stack>
            <Title order={2}>Two-factor authentication</Title>
            <MfaCodeStep busy={loginMfa.isPending} onSubmit={submitCode} onBack={() => setMfaToken(null)} />
          </Stack>
        </Card>
      </Center>
    );
  }

  return (
    <>
      <AuthCard title="Sign in" width={420} onSubmit={submit}>
        <TextInput label="Nickname or e-mail" autoComplete="username" required {...form.getInputProps('nickOrEmail')} />
        <PasswordInput label="Password" autoComplete="current-password" required {...form.getInputProps('password')} />
        <Button type="submit" loading={login.isPending} disabled={!filled}>
          {filled ? 'Sign in' : 'Complete all fields'}
        </Button>
        <Anchor component="button" type="button" size="sm" ta="left" onClick={() => setForgotOpened(true)}>
          Forgot password?
        </Anchor>
        <Divider label="or" labelPosition="center" />
        <PasskeyButton />
        <WalletButton mode="login" onMfaRequired={setMfaToken} />
        <Text size="sm" c="dimmed">
          New to Starlight?{' '}
          <Anchor component={Link} to="/register">
            Create an account
          </Anchor>
        </Text>
      </AuthCard>
      {/* Outside the sign-in form: a submit inside the dialog must not bubble (through the portal) to it. */}
      {forgotOpened !== null && (
        <Suspense fallback={null}>
          <ForgotPasswordModal opened={forgotOpened} onClose={() => setForgotOpened(false)} />
        </Suspense>
      )}
    </>
  );
}
