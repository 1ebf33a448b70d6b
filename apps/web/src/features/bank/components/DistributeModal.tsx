/**
 * SPEC §2/§4 Distribute Currency popup: source currency, amount, target currency, optional note. The
 * amount is shared among the target currency's holders pro rata, in whole units; the rest stays.
 */
import { Button, Group, Modal, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { distributeCurrencyRequest } from '@starlight/shared';
import { useCurrencies } from '../../../lib/currencies.ts';
import { labelWords, wordsOf } from '../../../lib/field-words.ts';
import { dropEmpty, schemaValidate } from '../../../lib/form.ts';
import { toastSuccess } from '../../../lib/notify.ts';
import { useDistributeCurrency } from '../api/distribute-currency.ts';

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
  const { data: currencies = [] } = useCurrencies();
  const distribute = useDistributeCurrency();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { currencyId: '', amount: '', targetCurrencyId: '', note: '' },
    validate: schemaValidate<Values>(distributeCurrencyRequest, toRequest, words),
  });
  const options = (filter: (c: (typeof currencies)[number]) => boolean) =>
    currencies.filter(filter).map((c) => ({ value: String(c.currencyId), label: `${c.name} (${c.ticker})` }));
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
          <TextInput label="Amount" inputMode="decimal" required {...form.getInputProps('amount')} />
          <Select label="Holders of" required data={options(() => true)} {...form.getInputProps('targetCurrencyId')} />
          <Textarea label="Note (optional)" maxLength={255} autosize minRows={2} {...form.getInputProps('note')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={distribute.isPending}>
              Distribute
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
