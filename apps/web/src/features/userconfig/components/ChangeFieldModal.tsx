/**
 * SPEC §2 Settings: the change dialogs of wallet-only members (nickname, e-mail), each asking for the new
 * value twice ('Nicknames do not match', 'Emails do not match'), checked with the shared schema and its
 * rule said in words (lib/field-words.ts). A new e-mail also asks for a two-factor code when the member has
 * one (DESIGN §11.1 step-up).
 */
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { z } from 'zod';
import { StepUpCodeField, stepUpCode } from '../../../components/StepUpCodeField.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { ACCOUNT_FIELD_WORDS, inWords } from '../../../lib/field-words.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useSession } from '../../../lib/session.ts';
import { useUpdateProfile } from '../api/update-profile.ts';

export interface ChangeFieldModalProps {
  field: 'nickname' | 'email';
  /** The field's label, e.g. 'New nickname'; the repeat field reads 'Repeat ' + it in lower case. */
  label: string;
  mismatch: string;
  schema: z.ZodType<string, string>;
  opened: boolean;
  onClose: () => void;
}

export function ChangeFieldModal({ field, label, mismatch, schema, opened, onClose }: ChangeFieldModalProps) {
  const update = useUpdateProfile();
  const stepUp = useSession((s) => field === 'email' && (s.user?.mfa?.totp ?? false));
  const form = useForm({
    mode: 'controlled',
    initialValues: { value: '', repeat: '', mfaCode: '' },
    validate: {
      value: (v) => (schema.safeParse(v.trim()).success ? null : ACCOUNT_FIELD_WORDS[field].rule),
      repeat: (v, values) => (v.trim() !== values.value.trim() ? mismatch : null),
    },
  });
  const { value, repeat } = form.values;
  const differs = repeat !== '' && repeat.trim() !== value.trim();
  const close = () => {
    form.reset();
    onClose();
  };

  const submit = form.onSubmit(async (values) => {
    try {
      const res = await update.mutateAsync({ [field]: values.value.trim(), ...stepUpCode(stepUp, values.mfaCode) });
      toastSuccess(res.message);
      close();
    } catch (err) {
      const message = inWords(errorMessage(err));
      form.setFieldError('value', message);
      toastError(message);
    }
  });

  return (
    <Modal opened={opened} onClose={close} title={`Change ${field === 'email' ? 'e-mail' : field}`} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label={label} required data-autofocus {...form.getInputProps('value')} />
          <TextInput
            label={`Repeat ${label.toLowerCase()}`}
            required
            {...form.getInputProps('repeat')}
            error={differs ? mismatch : form.errors.repeat}
          />
          {stepUp && <StepUpCodeField {...form.getInputProps('mfaCode')} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button
              type="submit"
              loading={update.isPending}
              disabled={value.trim() === '' || differs || (stepUp && form.values.mfaCode.trim().length < 6)}
            >
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
