/**
 * SPEC §2 /resetpassword/{token}: a new password twice ('passwords do not match'), then the result and
 * /dashboard 5 seconds later. Every session of the account ends with the reset, this browser's too.
 */
import { Button, PasswordInput, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { MESSAGES } from '@starlight/shared';
import { useParams } from '@tanstack/react-router';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError } from '../../../lib/notify.ts';
import { useSession } from '../../../lib/session.ts';
import { useResetPassword } from '../api/reset-password.ts';
import { useRedirectAfter } from '../hooks/use-redirect-after.ts';
import { AuthCard } from './AuthCard.tsx';
import { ResultCard } from './ResultCard.tsx';

export function ResetPasswordPage() {
  const { token = '' } = useParams({ strict: false }) as { token?: string };
  const reset = useResetPassword();
  const form = useForm({
    mode: 'controlled',
    initialValues: { password: '', confirm: '' },
    validate: {
      confirm: (value, values) => (value !== values.password ? 'passwords do not match' : null),
    },
  });
  // A dead link cannot be fixed by trying again: its result shows and the page moves on, like a success.
  const deadLink = reset.isError && errorMessage(reset.error) === MESSAGES.invalidLink;
  useRedirectAfter(reset.isSuccess || deadLink);
  const { password, confirm } = form.values;
  const mismatch = confirm !== '' && confirm !== password;

  const submit = form.onSubmit(async (values) => {
    try {
      await reset.mutateAsync({ token, password: values.password });
      useSession.getState().clear();
    } catch (err) {
      const message = errorMessage(err);
      if (message === MESSAGES.weakPassword) form.setFieldError('password', message);
      toastError(message);
    }
  });

  return (
    <AuthCard title="Reset password" width={420} onSubmit={submit}>
      {reset.isSuccess && <ResultCard ok title="Password changed" message={reset.data.message} />}
      {deadLink && <ResultCard ok={false} title="Password not changed" message={MESSAGES.invalidLink} />}
      {!reset.isSuccess && !deadLink && (
        <>
          <Text size="sm" c="dimmed">
            Choose a new password: 8 to 32 characters with a lower-case and an upper-case letter, a digit and a symbol.
          </Text>
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            required
            {...form.getInputProps('password')}
          />
          <PasswordInput
            label="Repeat new password"
            autoComplete="new-password"
            required
            {...form.getInputProps('confirm')}
            error={mismatch ? 'passwords do not match' : form.errors.confirm}
          />
          <Button type="submit" loading={reset.isPending} disabled={password === '' || confirm === '' || mismatch}>
            Set new password
          </Button>
        </>
      )}
    </AuthCard>
  );
}
