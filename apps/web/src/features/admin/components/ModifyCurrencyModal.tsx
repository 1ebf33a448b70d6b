/**
 * SPEC §2 Admin Console, Currency: the Modify Currency dialog (POST /api/bank/modifyCurrency). Picking a
 * currency loads its current values; only what changed is sent (SPEC §5), never the ticker.
 */
import { Alert, Button, Group, Modal, NativeSelect, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { modifyCurrencyRequest } from '@starlight/shared';
import { useState } from 'react';
import { useCurrencies } from '../../../lib/currencies.ts';
import { errorMessage, fieldErrors } from '../../../lib/errors.ts';
import { schemaValidate } from '../../../lib/form.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useModifyCurrency } from '../api/modify-currency.ts';
import { useRefreshBankData } from '../hooks/use-refresh-bank-data.ts';
import {
  type CurrencyFormValues,
  currencyToForm,
  EMPTY_CURRENCY_FORM,
  toModifyRequest,
} from '../utils/currency-form.ts';
import classes from './admin.module.css';
import { CurrencyFields } from './CurrencyFields.tsx';

export function ModifyCurrencyModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const isPhone = useMediaQuery('(max-width: 36em)');
  const currencies = useCurrencies();
  const mutation = useModifyCurrency();
  const refresh = useRefreshBankData();
  const [currencyId, setCurrencyId] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const original = currencies.byId.get(Number(currencyId));

  const form = useForm<CurrencyFormValues>({
    mode: 'controlled',
    initialValues: EMPTY_CURRENCY_FORM,
    validate: (values) =>
      original
        ? schemaValidate(modifyCurrencyRequest, (v: CurrencyFormValues) => toModifyRequest(original, v))(values)
        : {},
  });

  const changes = original ? Object.keys(toModifyRequest(original, form.values)).length - 1 : 0;

  const pick = (id: string) => {
    setCurrencyId(id);
    setFailure(null);
    const c = currencies.byId.get(Number(id));
    form.setValues(c ? currencyToForm(c) : EMPTY_CURRENCY_FORM);
    form.resetDirty();
    form.clearErrors();
  };

  const close = () => {
    setCurrencyId('');
    form.setValues(EMPTY_CURRENCY_FORM);
    form.clearErrors();
    setFailure(null);
    mutation.reset();
    onClose();
  };

  const submit = form.onSubmit(async (values) => {
    if (!original) return;
    setFailure(null);
    try {
      const res = await mutation.mutateAsync(toModifyRequest(original, values));
      toastSuccess(res.message);
      await refresh();
      close();
    } catch (err) {
      form.setErrors(fieldErrors(err));
      setFailure(errorMessage(err));
      toastError(errorMessage(err));
    }
  });

  const options = [
    { value: '', label: currencies.isLoading ? 'Loading currencies…' : 'Choose a currency' },
    ...(currencies.data ?? []).map((c) => ({ value: String(c.currencyId), label: `${c.ticker} · ${c.name}` })),
  ];

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Modify Currency"
      size="lg"
      fullScreen={isPhone}
      className={classes.contrast}
    >
      <form onSubmit={submit} noValidate data-testid="modify-currency-form">
        <Stack gap="md">
          <NativeSelect
            label="Currency"
            description="Its current values are loaded; only what you change is sent"
            required
            data={options}
            value={currencyId}
            onChange={(e) => pick(e.currentTarget.value)}
            data-testid="modify-currency-select"
          />
          <CurrencyFields form={form} mode="modify" disabled={!original} />
          {failure && (
            <Alert color="red" variant="light" role="alert">
              {failure}
            </Alert>
          )}
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="dimmed" role="status">
              {!original
                ? 'Choose a currency to modify'
                : changes === 0
                  ? 'Nothing changed yet'
                  : `${changes} field${changes === 1 ? '' : 's'} changed`}
            </Text>
            <Group gap="sm">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button
                type="submit"
                loading={mutation.isPending}
                disabled={!original || changes === 0}
                data-testid="modify-currency-submit"
              >
                Save changes
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
