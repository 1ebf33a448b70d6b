/**
 * SPEC §2 Admin Console, Currency: the Mint Currency and Burn Currency dialogs (POST /api/bank/mint,
 * /burn): recipient nickname, currency, amount, note (4 to 255). Each submission carries an
 * Idempotency-Key; resubmitting the same body after a failure reuses it (useIdempotentMutation).
 */
import { Button, Modal, NativeSelect, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { fitsPrecision, mintRequest, parseAmount } from '@starlight/shared';
import classes from '../../../components/admin.module.css';
import { DialogFooter } from '../../../components/DialogFooter.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { labelWords, wordsOf } from '../../../lib/field-words.ts';
import { dropEmpty, schemaValidate } from '../../../lib/form.ts';
import { useAdminSubmit } from '../../../lib/use-admin-submit.ts';
import { type SupplyAction, useMintOrBurn } from '../api/mint-or-burn.ts';
import { currencyOptions } from '../utils/currency-form.ts';

interface Values extends Record<string, unknown> {
  recipientNickName: string;
  currencyId: string;
  amount: string;
  note: string;
}

const EMPTY: Values = { recipientNickName: '', currencyId: '', amount: '', note: '' };

const toRequest = (v: Values) =>
  dropEmpty({
    recipientNickName: v.recipientNickName.trim(),
    currencyId: v.currencyId === '' ? undefined : Number(v.currencyId),
    amount: v.amount.trim(),
    note: v.note.trim(),
  });

const TEXT: Record<SupplyAction, { title: string; submit: string; recipient: string; color: string }> = {
  mint: { title: 'Mint Currency', submit: 'Mint', recipient: 'Recipient nickname', color: 'indigo' },
  burn: { title: 'Burn Currency', submit: 'Burn', recipient: 'Burn from nickname', color: 'red' },
};

/** Each dialog's fields in words, by their labels (SPEC §5 'Amount is required'). */
const WORDS: Record<SupplyAction, (message: string) => string> = {
  mint: wordsOf(
    labelWords({ recipientNickName: TEXT.mint.recipient, currencyId: 'Currency', amount: 'Amount', note: 'Note' }),
  ),
  burn: wordsOf(
    labelWords({ recipientNickName: TEXT.burn.recipient, currencyId: 'Currency', amount: 'Amount', note: 'Note' }),
  ),
};

export function SupplyModal({
  action,
  opened,
  onClose,
}: {
  action: SupplyAction;
  opened: boolean;
  onClose: () => void;
}) {
  const text = TEXT[action];
  const words = WORDS[action];
  const currencies = useCurrencies();
  const mutation = useMintOrBurn(action);
  const allowed = (currencies.data ?? []).filter((c) => (action === 'mint' ? c.canMint : c.canBurn));

  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: EMPTY,
    validate: (values) => {
      const errors = schemaValidate<Values>(mintRequest, toRequest, words)(values);
      if (values.amount.trim() === '') errors.amount = 'Amount is required';
      // The currency's precision is the server's rule too; say it before the round trip.
      const currency = currencies.byId.get(Number(values.currencyId));
      const parsed = parseAmount(values.amount.trim());
      if (!errors.amount && currency && parsed !== null && !fitsPrecision(parsed, currency.precision)) {
        errors.amount = `${currency.ticker} allows at most ${currency.precision} decimals`;
      }
      return errors;
    },
  });
  const currency = currencies.byId.get(Number(form.values.currencyId));

  const { failure, clearFailure, run } = useAdminSubmit(form, () => close(), words);
  const close = () => {
    form.reset();
    clearFailure();
    mutation.reset();
    onClose();
  };

  const submit = form.onSubmit((values) => {
    return run(() => mutation.mutateAsync(toRequest(values) as Parameters<typeof mutation.mutateAsync>[0]));
  });

  const options = currencyOptions(allowed, currencies.isLoading);

  return (
    <Modal opened={opened} onClose={close} title={text.title} className={classes.contrast}>
      <form onSubmit={submit} noValidate data-testid={`${action}-form`}>
        <Stack gap="sm">
          <TextInput
            label={text.recipient}
            required
            autoComplete="off"
            data-autofocus
            data-testid={`${action}-recipient`}
            {...form.getInputProps('recipientNickName')}
          />
          <NativeSelect
            label="Currency"
            description={action === 'mint' ? 'Currencies that can be minted' : 'Currencies that can be burned'}
            required
            data={options}
            data-testid={`${action}-currency`}
            {...form.getInputProps('currencyId')}
          />
          <TextInput
            label="Amount"
            description={currency ? `At least 0.01, up to ${currency.precision} decimals` : 'At least 0.01'}
            required
            inputMode="decimal"
            autoComplete="off"
            rightSection={currency?.ticker}
            rightSectionWidth={currency ? 64 : undefined}
            data-testid={`${action}-amount`}
            {...form.getInputProps('amount')}
          />
          <Textarea
            label="Note"
            description="4 to 255 characters, kept in the ledger and the admin log"
            required
            autosize
            minRows={2}
            maxLength={255}
            data-testid={`${action}-note`}
            {...form.getInputProps('note')}
          />
          <DialogFooter
            failure={failure}
            onCancel={close}
            submit={
              <Button type="submit" color={text.color} loading={mutation.isPending} data-testid={`${action}-submit`}>
                {text.submit}
              </Button>
            }
          />
        </Stack>
      </form>
    </Modal>
  );
}
