/**
 * SPEC §2 /resetpassword/{token}: a new password twice ('passwords do not match'), then the result. A
 * reset ends every session of the account (DESIGN §8), this browser's too, so the page says it is taking
 * the member to sign in and opens /login 5 seconds later (SPEC §9's delay). A link that does not work
 * (malformed: known at once; unknown, used or expired: the server's 400 on submit) says so in words with
 * the next step, never the raw validation message.
 */
import { Button, PasswordInput, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { MESSAGES, mailToken } from '@starlight/shared';
import { useParams } from '@tanstack/react-router';
import { ApiError } from '../../../lib/api.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError } from '../../../lib/notify.ts';
import { useSession } from '../../../lib/session.ts';
import { useResetPassword } from '../api/reset-password.ts';
import { useRedirectAfter } from '../hooks/use-redirect-after.ts';
import { AuthCard } from './AuthCard.tsx';
import { DoneCard, ProblemCard } from './ResultCard.tsx';

/** What a member reads for a reset link that does not work. */
export const BAD_RESET_LINK = 'This password reset link is invalid or has already been used.';

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
  // A dead link cannot be fixed by trying again: the page says so and where to get a new one.
  const deadLink =
    !mailToken.safeParse(token).success ||
    (reset.error instanceof ApiError && reset.error.status === 400 && reset.error.message !== MESSAGES.weakPassword);
  useRedirectAfter(reset.isSuccess ? '/login' : null);
  const { password, confirm } = form.values;
  const mismatch = confirm !== '' && confirm !== password;

  const submit = form.onSubmit(async (values) => {
    try {
      await reset.mutateAsync({ token, password: values.password });
      useSession.getState().clear();
    } catch (err) {
      const message = errorMessage(err);
      if (message === MESSAGES.weakPassword) {
        form.setFieldError('password', message);
        toastError(message);
      }
      // A dead link shows its page; anything else (the network) is toasted.
      else if (!(err instanceof ApiError && err.status === 400)) toastError(message);
    }
  });

  return (
    <AuthCard title="Reset password" width={420} onSubmit={submit}>
      {reset.isSuccess && <DoneCard title="Password changed" message={reset.data.message} next="/login" />}
      {deadLink && (
        <ProblemCard
          title="Password not changed"
          message={BAD_RESET_LINK}
          advice="Ask for a new one: on the sign-in page, press Forgot password? and enter your e-mail."
          action={{ to: '/login', label: 'Go to sign in' }}
        />
      )}
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
