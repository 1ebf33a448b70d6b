/**
 * SPEC §2/§4 Distribute Currency popup: source currency, amount, target currency, optional note. The
 * amount is shared among the target currency's holders pro rata, in whole units; the rest stays. The
 * amount shows the member's balance (Available) with a Max and is checked as it is typed.
 */
import { Button, Group, Modal, Select, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { distributeCurrencyRequest, toDecimalString } from '@starlight/shared';
import { formatMoneyWithTicker } from '../../../components/Money.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { labelWords, wordsOf } from '../../../lib/field-words.ts';
import { dropEmpty, schemaValidate } from '../../../lib/form.ts';
import { toastSuccess } from '../../../lib/notify.ts';
import { useDistributeCurrency } from '../api/distribute-currency.ts';
import { useBalanceOf } from '../hooks/use-balance.ts';
import { amountProblem, maxTaxInside } from '../utils/amount-limits.ts';
import { AmountField } from './AmountField.tsx';

/** The popup's fields in words, by their labels (SPEC §5 'Amount is required'). */
const words = wordsOf(
  labelWords({
    currencyId: 'Currency to distribute',
    amount: 'Amount',
    targetCurrencyId: 'Holders of',
    note: 'Note',
  }),
);

interface Values extends Record<string, unknown> {
  currencyId: string;
  amount: string;
  targetCurrencyId: string;
  note: string;
}

const toRequest = (v: Values) =>
  dropEmpty({
    ...v,
    amount: v.amount.trim(),
    currencyId: v.currencyId === '' ? '' : Number(v.currencyId),
    targetCurrencyId: v.targetCurrencyId === '' ? '' : Number(v.targetCurrencyId),
  });

export function DistributeModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { data: currencies = [], byId } = useCurrencies();
  const distribute = useDistributeCurrency();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { currencyId: '', amount: '', targetCurrencyId: '', note: '' },
    validate: schemaValidate<Values>(distributeCurrencyRequest, toRequest, words),
  });
  const options = (filter: (c: (typeof currencies)[number]) => boolean) =>
    currencies.filter(filter).map((c) => ({ value: String(c.currencyId), label: `${c.name} (${c.ticker})` }));
  const currency = byId.get(Number(form.values.currencyId));
  const fmt = (v: bigint) => formatMoneyWithTicker(toDecimalString(v), currency);
  const available = useBalanceOf(currency?.currencyId);
  const max = currency && available !== null ? maxTaxInside(available, currency.precision) : null;
  const problem = amountProblem(form.values.amount, currency, available, undefined, fmt);
  const ready = currency !== undefined && form.values.amount.trim() !== '' && problem === null;
  const close = () => {
    form.reset();
    onClose();
  };
  const submit = form.onSubmit(async (values) => {
    try {
      const res = await distribute.mutateAsync(toRequest(values) as Parameters<typeof distribute.mutateAsync>[0]);
      toastSuccess(res.message);
      close();
    } catch {
      // The mutation toasted the failure (useIdempotentMutation).
    }
  });
  return (
    <Modal opened={opened} onClose={close} title="Distribute Currency" centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            Share an amount of one currency among everyone holding another, in proportion to their holdings. Each holder
            receives whole units; what cannot be shared stays with you.
          </Text>
          <Select
            label="Currency to distribute"
            required
            data={options((c) => c.canTransfer)}
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
          <Select label="Holders of" required data={options(() => true)} {...form.getInputProps('targetCurrencyId')} />
          <Textarea label="Note (optional)" maxLength={255} autosize minRows={2} {...form.getInputProps('note')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={distribute.isPending} disabled={!ready}>
              Distribute
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
