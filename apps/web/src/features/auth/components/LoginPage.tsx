/** SPEC §2 login: by nickname or e-mail and password, or with a wallet. */
import { Anchor, Button, Divider, PasswordInput, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError } from '../../../lib/notify.ts';
import { useLogin } from '../api/login.ts';
import { useEnterApp } from '../hooks/use-enter-app.ts';
import { AuthCard } from './AuthCard.tsx';
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

  const submit = form.onSubmit(async (values) => {
    try {
      const res = await login.mutateAsync({ nickOrEmail: values.nickOrEmail.trim(), password: values.password });
      await enterApp(res);
    } catch (err) {
      toastError(errorMessage(err));
    }
  });

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
        <WalletButton mode="login" />
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
