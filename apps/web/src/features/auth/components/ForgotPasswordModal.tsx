/**
 * SPEC §2 forgot password, opened from /login: an e-mail address, and a button that stays disabled for
 * 5 seconds after each submission ('Please wait…', SPEC §9). The answer is the same for any address.
 */
import { Button, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { forgotPasswordRequest } from '@starlight/shared';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../../lib/errors.ts';
import { ACCOUNT_FIELD_WORDS } from '../../../lib/field-words.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useForgotPassword } from '../api/forgot-password.ts';

/** SPEC §9: the forgot-password button's lockout after a submission (milliseconds). */
const LOCKOUT_MS = 5000;

export function ForgotPasswordModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const forgot = useForgotPassword();
  const [locked, setLocked] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { email: '' },
    validate: {
      email: (value) =>
        forgotPasswordRequest.shape.email.safeParse(value).success ? null : ACCOUNT_FIELD_WORDS.email.rule,
    },
  });
  useEffect(() => {
    if (!locked) return;
    const timer = setTimeout(() => setLocked(false), LOCKOUT_MS);
    return () => clearTimeout(timer);
  }, [locked]);

  const submit = form.onSubmit(async ({ email }) => {
    setLocked(true);
    try {
      const res = await forgot.mutateAsync({ email: email.trim() });
      toastSuccess(res.message);
    } catch (err) {
      toastError(errorMessage(err));
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title="Forgot your password?" centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            Enter the e-mail of your account and we will send you a link to choose a new password. The link works for
            one hour.
          </Text>
          <TextInput
            label="Account e-mail"
            type="email"
            autoComplete="email"
            required
            {...form.getInputProps('email')}
          />
          <Button type="submit" disabled={locked || form.values.email.trim() === ''} loading={forgot.isPending}>
            {locked ? 'Please wait…' : 'Send reset link'}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
