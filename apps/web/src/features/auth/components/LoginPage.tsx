/** SPEC §2 login: by nickname or e-mail and password. */
import { Anchor, Button, Card, Center, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link, useNavigate } from '@tanstack/react-router';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useSession } from '../../../lib/session.ts';
import { useLogin } from '../api/login.ts';

export function LoginPage() {
  const navigate = useNavigate();
  const login = useLogin();
  const form = useForm({ mode: 'controlled', initialValues: { nickOrEmail: '', password: '' } });
  const filled = form.values.nickOrEmail.trim() !== '' && form.values.password !== '';

  const submit = form.onSubmit(async (values) => {
    try {
      const res = await login.mutateAsync({ nickOrEmail: values.nickOrEmail.trim(), password: values.password });
      useSession.getState().signIn(res.user, res.token);
      toastSuccess(res.message);
      await navigate({ to: '/dashboard' });
    } catch (err) {
      toastError(errorMessage(err));
    }
  });

  return (
    <Center mih="70vh">
      <Card withBorder radius="md" p="xl" w="100%" maw={420}>
        <form onSubmit={submit} noValidate>
          <Stack>
            <Title order={2}>Sign in</Title>
            <TextInput
              label="Nickname or e-mail"
              autoComplete="username"
              required
              {...form.getInputProps('nickOrEmail')}
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              required
              {...form.getInputProps('password')}
            />
            <Button type="submit" loading={login.isPending} disabled={!filled}>
              {filled ? 'Sign in' : 'Complete all fields'}
            </Button>
            <Text size="sm" c="dimmed">
              New to Starlight?{' '}
              <Anchor component={Link} to="/register">
                Create an account
              </Anchor>
            </Text>
          </Stack>
        </form>
      </Card>
    </Center>
  );
}
