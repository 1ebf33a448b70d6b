/**
 * SPEC §2 Admin Console, Currency: the Modify Currency dialog (POST /api/bank/modifyCurrency). Picking a
 * currency loads its current values; only what changed is sent (SPEC §5), never the ticker.
 */
import { Button, Modal, NativeSelect, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { modifyCurrencyRequest } from '@starlight/shared';
import { useState } from 'react';
import classes from '../../../components/admin.module.css';
import { DialogFooter } from '../../../components/DialogFooter.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { wordsOf } from '../../../lib/field-words.ts';
import { schemaValidate } from '../../../lib/form.ts';
import { useAdminSubmit } from '../../../lib/use-admin-submit.ts';
import { useModifyCurrency } from '../api/modify-currency.ts';
import {
  CURRENCY_FIELD_WORDS,
  type CurrencyFormValues,
  currencyOptions,
  currencyToForm,
  EMPTY_CURRENCY_FORM,
  toModifyRequest,
} from '../utils/currency-form.ts';
import { CurrencyFields } from './CurrencyFields.tsx';

const words = wordsOf(CURRENCY_FIELD_WORDS);

export function ModifyCurrencyModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const isPhone = useMediaQuery('(max-width: 36em)');
  const currencies = useCurrencies();
  const mutation = useModifyCurrency();
  const [currencyId, setCurrencyId] = useState('');
  const original = currencies.byId.get(Number(currencyId));

  const form = useForm<CurrencyFormValues>({
    mode: 'controlled',
    initialValues: EMPTY_CURRENCY_FORM,
    validate: (values) =>
      original
        ? schemaValidate(modifyCurrencyRequest, (v: CurrencyFormValues) => toModifyRequest(original, v), words)(values)
        : {},
  });

  const changes = original ? Object.keys(toModifyRequest(original, form.values)).length - 1 : 0;

  const { failure, clearFailure, run } = useAdminSubmit(form, () => close(), words);

  const pick = (id: string) => {
    setCurrencyId(id);
    clearFailure();
    const c = currencies.byId.get(Number(id));
    form.setValues(c ? currencyToForm(c) : EMPTY_CURRENCY_FORM);
    form.resetDirty();
    form.clearErrors();
  };

  const close = () => {
    setCurrencyId('');
    form.setValues(EMPTY_CURRENCY_FORM);
    form.clearErrors();
    clearFailure();
    mutation.reset();
    onClose();
  };

  const submit = form.onSubmit(async (values) => {
    if (original) await run(() => mutation.mutateAsync(toModifyRequest(original, values)));
  });

  const options = currencyOptions(currencies.data ?? [], currencies.isLoading);

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
          <DialogFooter
            failure={failure}
            onCancel={close}
            status={
              <Text size="sm" c="dimmed" role="status">
                {!original
                  ? 'Choose a currency to modify'
                  : changes === 0
                    ? 'Nothing changed yet'
                    : `${changes} field${changes === 1 ? '' : 's'} changed`}
              </Text>
            }
            submit={
              <Button
                type="submit"
                loading={mutation.isPending}
                disabled={!original || changes === 0}
                data-testid="modify-currency-submit"
              >
                Save changes
              </Button>
            }
          />
        </Stack>
      </form>
    </Modal>
  );
}
