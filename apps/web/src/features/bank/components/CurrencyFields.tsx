/** The fields shared by the Create and Modify Currency dialogs. Taxes are typed as percents (SPEC §3). */
import { Checkbox, Fieldset, NumberInput, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { type CurrencyFormValues, FLAG_FIELDS, FLAG_LABELS, TAX_FIELDS, TAX_LABELS } from '../utils/currency-form.ts';

export function CurrencyFields({
  form,
  mode,
  disabled = false,
}: {
  form: UseFormReturnType<CurrencyFormValues>;
  mode: 'create' | 'modify';
  disabled?: boolean;
}) {
  const idPrefix = mode === 'create' ? 'create-currency' : 'modify-currency';
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <TextInput
          label="Ticker"
          description={mode === 'create' ? '2 to 7 letters or digits' : 'The ticker cannot be changed'}
          required={mode === 'create'}
          disabled={disabled || mode === 'modify'}
          data-testid={`${idPrefix}-ticker`}
          {...form.getInputProps('ticker')}
        />
        <TextInput
          label="Name"
          description="3 to 31 characters"
          required={mode === 'create'}
          disabled={disabled}
          data-testid={`${idPrefix}-name`}
          {...form.getInputProps('name')}
        />
        <NumberInput
          label="Precision"
          description="Decimal places, 0 to 9"
          required={mode === 'create'}
          min={0}
          max={9}
          allowDecimal={false}
          allowNegative={false}
          hideControls
          disabled={disabled}
          data-testid={`${idPrefix}-precision`}
          {...form.getInputProps('precision')}
        />
        <TextInput
          label="Tax collector"
          description="Nickname; empty burns the taxes"
          disabled={disabled}
          data-testid={`${idPrefix}-taxCollector`}
          {...form.getInputProps('taxCollector')}
        />
      </SimpleGrid>
      <Fieldset legend="Permissions" variant="filled" disabled={disabled}>
        <SimpleGrid cols={{ base: 2, xs: 3 }} spacing="sm" verticalSpacing="xs">
          {FLAG_FIELDS.map((f) => (
            <Checkbox
              key={f}
              label={FLAG_LABELS[f]}
              data-testid={`${idPrefix}-${f}`}
              {...form.getInputProps(f, { type: 'checkbox' })}
            />
          ))}
        </SimpleGrid>
      </Fieldset>
      {form.values.isFrozen && (
        <Textarea
          label="Frozen note"
          description="Shown to members when they use a frozen currency"
          autosize
          minRows={2}
          disabled={disabled}
          data-testid={`${idPrefix}-frozenNote`}
          {...form.getInputProps('frozenNote')}
        />
      )}
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
        {TAX_FIELDS.map((f) => (
          <TextInput
            key={f}
            label={`${TAX_LABELS[f]} (%)`}
            description="Percent, 0 to 100"
            inputMode="decimal"
            rightSection="%"
            disabled={disabled}
            data-testid={`${idPrefix}-${f}`}
            {...form.getInputProps(f)}
          />
        ))}
      </SimpleGrid>
      <TextInput
        label="Image URL"
        type="url"
        disabled={disabled}
        data-testid={`${idPrefix}-imgUrl`}
        {...form.getInputProps('imgUrl')}
      />
    </Stack>
  );
}
