/**
 * The Amount field of the money popups (Transfer, Withdraw, Distribute): the member's balance of the
 * chosen currency as 'Available', a Max button that fills in the most they can send (tax included, from
 * `utils/amount-limits.ts`), and what is wrong with the amount in words under the field as they type.
 */
import { Button, TextInput } from '@mantine/core';
import { type Currency, formatAtPrecision, toDecimalString } from '@starlight/shared';
import { formatMoneyWithTicker } from '../../../components/Money.tsx';

export interface AmountFieldProps {
  /** The form's props of the field (`form.getInputProps('amount')`): value, onChange, and its error on Send. */
  input: object;
  /** Sets the field's text (Max). */
  setValue: (text: string) => void;
  currency: Currency | undefined;
  /** The member's balance of `currency` (10^-9 units); null hides Available and Max. */
  available: bigint | null;
  /** The most they can send; null hides Max. */
  max: bigint | null;
  /** What is wrong with the typed amount, in words (shown before the form's own error). */
  problem: string | null;
}

export function AmountField({ input, setValue, currency, available, max, problem }: AmountFieldProps) {
  const showMax = currency !== undefined && max !== null && max > 0n;
  return (
    <TextInput
      label="Amount"
      inputMode="decimal"
      required
      autoComplete="off"
      {...input}
      error={problem ?? (input as { error?: string }).error}
      description={
        currency && available !== null
          ? `Available: ${formatMoneyWithTicker(toDecimalString(available), currency)}`
          : undefined
      }
      inputWrapperOrder={['label', 'description', 'input', 'error']}
      rightSectionWidth={showMax ? 64 : undefined}
      rightSection={
        showMax ? (
          <Button
            size="compact-xs"
            variant="light"
            aria-label={`Max: ${formatAtPrecision(max, currency.precision)} ${currency.ticker}`}
            onClick={() => setValue(formatAtPrecision(max, currency.precision))}
          >
            Max
          </Button>
        ) : undefined
      }
    />
  );
}
