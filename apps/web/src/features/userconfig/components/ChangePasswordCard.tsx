/**
 * SPEC §2 Settings, for members with a password: the current one, then the new one twice ('passwords do
 * not match'). The other sessions end; this one continues with the fresh token the server answers. The
 * member chooses whether the API keys stop working too (DESIGN §8): checked by default, since a password
 * is changed most often because someone else may know it, and a key is as good as the password to them.
 * With two-factor authentication on, the form asks for a code too (DESIGN §11.1 step-up).
 */
import { Button, Card, Checkbox, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { MESSAGES } from '@starlight/shared';
import { StepUpCodeField, stepUpCode } from '../../../components/StepUpCodeField.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useSession } from '../../../lib/session.ts';
import { useUpdateProfile } from '../api/update-profile.ts';

const MISMATCH = 'passwords do not match';

export function ChangePasswordCard() {
  const update = useUpdateProfile();
  const stepUp = useSession((s) => s.user?.mfa?.totp ?? false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { currentPassword: '', password: '', repeat: '', revokeApiKeys: true, mfaCode: '' },
    validate: { repeat: (v, values) => (v !== values.password ? MISMATCH : null) },
  });
  const { currentPassword, password, repeat } = form.values;
  const differs = repeat !== '' && repeat !== password;

  const submit = form.onSubmit(async (values) => {
    try {
      const res = await update.mutateAsync({
        password: values.password,
        currentPassword: values.currentPassword,
        revokeApiKeys: values.revokeApiKeys,
        ...stepUpCode(stepUp, values.mfaCode),
      });
      toastSuccess(res.message);
      form.reset();
    } catch (err) {
      const message = errorMessage(err);
      if (message === MESSAGES.incorrectPassword) form.setFieldError('currentPassword', message);
      if (message === MESSAGES.weakPassword) form.setFieldError('password', message);
      if (message === MESSAGES.invalidCode || message === MESSAGES.codeRequired) form.setFieldError('mfaCode', message);
      toastError(message);
    }
  });

  return (
    <Card withBorder radius="md">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={3} size="h4">
            Change password
          </Title>
          <Text size="sm" c="dimmed">
            Signing in elsewhere? Changing your password signs every other device out.
          </Text>
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            required
            {...form.getInputProps('currentPassword')}
          />
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
            {...form.getInputProps('repeat')}
            error={differs ? MISMATCH : form.errors.repeat}
          />
          {stepUp && <StepUpCodeField {...form.getInputProps('mfaCode')} />}
          <Checkbox
            label="Also revoke my API keys"
            description="Apps and scripts using a key stop working until you make a new one."
            {...form.getInputProps('revokeApiKeys', { type: 'checkbox' })}
          />
          <Button
            type="submit"
            w="fit-content"
            loading={update.isPending}
            disabled={
              currentPassword === '' ||
              password === '' ||
              repeat === '' ||
              differs ||
              (stepUp && form.values.mfaCode.trim().length < 6)
            }
          >
            Change password
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
