/** SPEC §2 Admin Console, Currency: the Create Currency dialog (POST /api/bank/createCurrency). */
import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { createCurrencyRequest } from '@starlight/shared';
import { useState } from 'react';
import { errorMessage, fieldErrors } from '../../../lib/errors.ts';
import { schemaValidate } from '../../../lib/form.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useCreateCurrency } from '../api/create-currency.ts';
import { useRefreshBankData } from '../hooks/use-refresh-bank-data.ts';
import { type CurrencyFormValues, EMPTY_CURRENCY_FORM, toCreateRequest } from '../utils/currency-form.ts';
import classes from './admin.module.css';
import { CurrencyFields } from './CurrencyFields.tsx';

export function CreateCurrencyModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const isPhone = useMediaQuery('(max-width: 36em)');
  const mutation = useCreateCurrency();
  const refresh = useRefreshBankData();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<CurrencyFormValues>({
    mode: 'controlled',
    initialValues: EMPTY_CURRENCY_FORM,
    validate: schemaValidate<CurrencyFormValues>(createCurrencyRequest, toCreateRequest),
  });

  const close = () => {
    form.reset();
    setFailure(null);
    mutation.reset();
    onClose();
  };

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      const res = await mutation.mutateAsync(toCreateRequest(values));
      toastSuccess(res.message);
      await refresh();
      close();
    } catch (err) {
      form.setErrors(fieldErrors(err));
      setFailure(errorMessage(err));
      toastError(errorMessage(err));
    }
  });

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
          {failure && (
            <Alert color="red" variant="light" role="alert">
              {failure}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={mutation.isPending} data-testid="create-currency-submit">
              Create
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
