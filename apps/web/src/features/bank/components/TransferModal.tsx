/**
 * SPEC §2 Transfer popup: recipient nickname, a currency that allows transfer, amount, note. Shows the
 * member's balance of the currency (Available) with a Max, says what is wrong with the amount as it is
 * typed (decimals, balance), keeps Send off until the amount can go, and shows the currency's tax before
 * sending; the toast carries the server's message.
 */
import { Alert, Button, Group, Modal, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { feeOf, fromNumeric, p2pTransferRequest, parseAmount, toDecimalString } from '@starlight/shared';
import { formatMoneyWithTicker } from '../../../components/Money.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { labelWords, wordsOf } from '../../../lib/field-words.ts';
import { dropEmpty, schemaValidate } from '../../../lib/form.ts';
import { toastSuccess } from '../../../lib/notify.ts';
import { fractionToPercent } from '../../../lib/percent.ts';
import { useP2pTransfer } from '../api/p2p-transfer.ts';
import { useBalanceOf } from '../hooks/use-balance.ts';
import { amountProblem, maxTaxInside } from '../utils/amount-limits.ts';
import { AmountField } from './AmountField.tsx';

/** The popup's fields in words, by their labels (SPEC §5 'Amount is required'). */
const words = wordsOf(
  labelWords({ recipientNickName: 'Recipient nickname', currencyId: 'Currency', amount: 'Amount', note: 'Note' }),
);

interface Values extends Record<string, unknown> {
  recipientNickName: string;
  currencyId: string;
  amount: string;
  note: string;
}

const toRequest = (v: Values) =>
  dropEmpty({ ...v, amount: v.amount.trim(), currencyId: v.currencyId === '' ? '' : Number(v.currencyId) });

export function TransferModal({
  opened,
  onClose,
  currencyId,
}: {
  opened: boolean;
  onClose: () => void;
  currencyId?: number;
}) {
  const { data: currencies = [], byId } = useCurrencies();
  const transfer = useP2pTransfer();
  const transferable = currencies.filter((c) => c.canTransfer);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { recipientNickName: '', currencyId: currencyId ? String(currencyId) : '', amount: '', note: '' },
    validate: schemaValidate<Values>(p2pTransferRequest, toRequest, words),
  });
  const currency = byId.get(Number(form.values.currencyId));
  const parsed = parseAmount(form.values.amount.trim());
  const tax = currency && parsed !== null ? feeOf(parsed, fromNumeric(currency.transferTax), currency.precision) : null;

  // DESIGN §4: the server refuses a transfer whose rounded-up tax is the whole amount.
  const takesAll = tax !== null && parsed !== null && parsed > 0n && tax >= parsed;
  const fmt = (v: bigint) => formatMoneyWithTicker(toDecimalString(v), currency);
  // The tax comes out of the amount (the recipient receives the rest): the whole balance can go.
  const available = useBalanceOf(currency?.currencyId);
  const max = currency && available !== null ? maxTaxInside(available, currency.precision) : null;
  const problem = amountProblem(form.values.amount, currency, available, undefined, fmt);
  const ready = currency !== undefined && parsed !== null && problem === null && !takesAll;

  const close = () => {
    form.reset();
    onClose();
  };

  const submit = form.onSubmit(async (values) => {
    try {
      const res = await transfer.mutateAsync(toRequest(values) as Parameters<typeof transfer.mutateAsync>[0]);
      toastSuccess(res.message);
      close();
    } catch {
      // The mutation toasted the failure (useIdempotentMutation).
    }
  });

  return (
    <Modal opened={opened} onClose={close} title="Transfer" centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label="Recipient nickname" required data-autofocus {...form.getInputProps('recipientNickName')} />
          <Select
            label="Currency"
            required
            placeholder="Choose a currency"
            data={transferable.map((c) => ({ value: String(c.currencyId), label: `${c.name} (${c.ticker})` }))}
            {...form.getInputProps('currencyId')}
          />
          <AmountField
            input={form.getInputProps('amount')}
            setValue={(text) => form.setFieldValue('amount', text)}
            currency={currency}
            available={available}
            max={max}
            problem={problem}
          />
          <Textarea label="Note (optional)" maxLength={255} autosize minRows={2} {...form.getInputProps('note')} />
          {currency && tax !== null && parsed !== null && problem === null && (
            <Alert variant="light" color={takesAll ? 'red' : tax > 0n ? 'yellow' : 'blue'} p="xs">
              <Text size="sm">
                {takesAll
                  ? `Amount too small: the ${fractionToPercent(currency.transferTax)}% transfer tax (${fmt(tax)}) would leave the recipient nothing.`
                  : tax > 0n
                    ? `Transfer tax ${fractionToPercent(currency.transferTax)}%: ${fmt(tax)} (rounded up to the smallest unit). The recipient receives ${fmt(parsed - tax)}.`
                    : `No transfer tax on ${currency.ticker}.`}
              </Text>
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={transfer.isPending} disabled={!ready}>
              Send
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
