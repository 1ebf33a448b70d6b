/** SPEC §2 Admin Console, Currency: the Create Currency dialog (POST /api/bank/createCurrency). */
import { Button, Modal, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { createCurrencyRequest } from '@starlight/shared';
import classes from '../../../components/admin.module.css';
import { DialogFooter } from '../../../components/DialogFooter.tsx';
import { wordsOf } from '../../../lib/field-words.ts';
import { schemaValidate } from '../../../lib/form.ts';
import { useAdminSubmit } from '../../../lib/use-admin-submit.ts';
import { useCreateCurrency } from '../api/create-currency.ts';
import {
  CURRENCY_FIELD_WORDS,
  type CurrencyFormValues,
  EMPTY_CURRENCY_FORM,
  toCreateRequest,
} from '../utils/currency-form.ts';

const words = wordsOf(CURRENCY_FIELD_WORDS);

import { CurrencyFields } from './CurrencyFields.tsx';

export function CreateCurrencyModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const isPhone = useMediaQuery('(max-width: 36em)');
  const mutation = useCreateCurrency();
  const form = useForm<CurrencyFormValues>({
    mode: 'controlled',
    initialValues: EMPTY_CURRENCY_FORM,
    validate: schemaValidate<CurrencyFormValues>(createCurrencyRequest, toCreateRequest, words),
  });

  const { failure, clearFailure, run } = useAdminSubmit(form, () => close(), words);
  const close = () => {
    form.reset();
    clearFailure();
    mutation.reset();
    onClose();
  };

  const submit = form.onSubmit((values) => run(() => mutation.mutateAsync(toCreateRequest(values))));

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Create Currency"
      size="lg"
      fullScreen={isPhone}
      className={classes.contrast}
    >
      <form onSubmit={submit} noValidate data-testid="create-currency-form">
        <Stack gap="md">
          <CurrencyFields form={form} mode="create" />
          <DialogFooter
            failure={failure}
            onCancel={close}
            submit={
              <Button type="submit" loading={mutation.isPending} data-testid="create-currency-submit">
                Create
              </Button>
            }
          />
        </Stack>
      </form>
    </Modal>
  );
}
