/**
 * SPEC §2 My Tokens, DESIGN §8: the Withdraw and Deposit popups. A withdrawal is debited at once with the
 * currency's withdrawal tax (shown before sending) and paid out by an admin; a deposit is a claim (the
 * transaction reference from the wallet) credited once an admin approves it. The wallet address is
 * prefilled from the member's primary wallet. A withdrawal shows the member's balance (Available) with a
 * Max that leaves room for the tax, and both say what is wrong with the amount as it is typed.
 * A withdrawal also offers the member's saved addresses, and only those when "Allowed addresses only" is
 * in force; during a security hold it says until when withdrawals are paused before anything is filled
 * in, and cannot be sent (DESIGN §11.2).
 */
import { Alert, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  depositRequest,
  feeOf,
  formatDate,
  fromNumeric,
  parseAmount,
  toDecimalString,
  withdrawRequest,
} from '@starlight/shared';
import { IconLock } from '@tabler/icons-react';
import { formatMoneyWithTicker } from '../../../components/Money.tsx';
import { StepUpCodeField, stepUpCode } from '../../../components/StepUpCodeField.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { labelWords, wordsOf } from '../../../lib/field-words.ts';
import { dropEmpty, schemaValidate } from '../../../lib/form.ts';
import { toastSuccess } from '../../../lib/notify.ts';
import { fractionToPercent } from '../../../lib/percent.ts';
import { useSession } from '../../../lib/session.ts';
import {
  activeAddressesFor,
  isAllowListInForce,
  pausedUntil,
  useWithdrawAddresses,
} from '../../../lib/withdraw-addresses.ts';
import { useDeposit } from '../api/deposit.ts';
import { useWithdraw } from '../api/withdraw.ts';
import { useBalanceOf } from '../hooks/use-balance.ts';
import { amountProblem, maxTaxOnTop } from '../utils/amount-limits.ts';
import { AmountField } from './AmountField.tsx';
import { savedAddressOf, WithdrawAddressPicker } from './WithdrawAddressPicker.tsx';

/** The popup's fields in words, by their labels (SPEC §5 'Amount is required'). */
const words = wordsOf(
  labelWords({
    currencyId: 'Currency',
    amount: 'Amount',
    walletAddress: 'Wallet address',
    reference: 'Transaction reference',
  }),
);

interface Values extends Record<string, unknown> {
  currencyId: string;
  amount: string;
  walletAddress: string;
  reference: string;
  /** The step-up code of a withdrawal when the member has a second factor (DESIGN §11.1). */
  mfaCode: string;
}

export type SettlementKind = 'withdrawal' | 'deposit';

export function SettlementModal({
  kind,
  opened,
  onClose,
  currencyId,
}: {
  kind: SettlementKind;
  opened: boolean;
  onClose: () => void;
  currencyId?: number;
}) {
  const { data: currencies = [], byId } = useCurrencies();
  const wallet = useSession((s) => s.user?.primaryWallet ?? '');
  const stepUp = useSession((s) => kind === 'withdrawal' && (s.user?.mfa?.totp ?? false));
  const withdraw = useWithdraw();
  const deposit = useDeposit();
  const isWithdrawal = kind === 'withdrawal';
  // Read each time the popup opens: a hold or the switch may have changed since.
  const addressList = useWithdrawAddresses({ enabled: isWithdrawal && opened });
  const paused = isWithdrawal ? pausedUntil(addressList.data) : null;
  const allowListOnly = isWithdrawal && addressList.data !== undefined && isAllowListInForce(addressList.data);
  const allowed = currencies.filter((c) => (isWithdrawal ? c.canWithdraw : c.canDeposit));
  const toRequest = (v: Values) =>
    dropEmpty({
      currencyId: v.currencyId === '' ? '' : Number(v.currencyId),
      amount: v.amount.trim(),
      walletAddress: v.walletAddress.trim(),
      ...(isWithdrawal ? {} : { reference: v.reference.trim() }),
    });
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: {
      currencyId: currencyId ? String(currencyId) : '',
      amount: '',
      walletAddress: wallet,
      reference: '',
      mfaCode: '',
    },
    validate: schemaValidate<Values>(isWithdrawal ? withdrawRequest : depositRequest, toRequest, words),
  });
  const currency = byId.get(Number(form.values.currencyId));
  const saved = isWithdrawal && currency ? activeAddressesFor(addressList.data, currency.currencyId) : [];
  const parsed = parseAmount(form.values.amount.trim());
  const taxRate = currency ? (isWithdrawal ? currency.withdrawTax : currency.depositTax) : '0';
  const tax = currency && parsed !== null ? feeOf(parsed, fromNumeric(taxRate), currency.precision) : null;
  const fmt = (v: bigint) => formatMoneyWithTicker(toDecimalString(v), currency);
  const pending = withdraw.isPending || deposit.isPending;
  // A withdrawal's tax leaves the balance on top of the amount; a deposit comes from the wallet, unbounded here.
  const balance = useBalanceOf(currency?.currencyId);
  const available = isWithdrawal ? balance : null;
  const rate = fromNumeric(taxRate);
  const max = currency && available !== null ? maxTaxOnTop(available, rate, currency.precision) : null;
  const problem = amountProblem(
    form.values.amount,
    currency,
    available,
    (a) => (currency ? a + feeOf(a, rate, currency.precision) : a),
    fmt,
  );
  const ready =
    paused === null &&
    (!allowListOnly || savedAddressOf(saved, form.values.walletAddress) !== undefined) &&
    currency !== undefined &&
    parsed !== null &&
    problem === null &&
    (!stepUp || form.values.mfaCode.trim().length >= 6);

  const close = () => {
    form.reset();
    onClose();
  };

  const submit = form.onSubmit(async (values) => {
    try {
      // The form's validation (the request's schema, above) has passed: every field is filled in.
      const body = {
        currencyId: Number(values.currencyId),
        amount: values.amount.trim(),
        walletAddress: values.walletAddress.trim(),
      };
      const res = isWithdrawal
        ? await withdraw.mutateAsync({ ...body, ...stepUpCode(stepUp, values.mfaCode) })
        : await deposit.mutateAsync({ ...body, reference: values.reference.trim() });
      toastSuccess(res.message);
      close();
    } catch {
      // The mutation toasted the failure (useIdempotentMutation).
    }
  });

  return (
    <Modal opened={opened} onClose={close} title={isWithdrawal ? 'Withdraw' : 'Deposit'} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          {paused && (
            <Alert color="orange" icon={<IconLock size={16} />} role="alert" title="Withdrawals paused">
              Withdrawals are paused until {formatDate(paused)} after a change to your account's security.
            </Alert>
          )}
          <Text size="sm" c="dimmed">
            {isWithdrawal
              ? 'The amount and its tax leave your balance now; an admin sends the amount to your wallet. If the admin refuses, both come back.'
              : 'Send the currency from your wallet first, then claim it here with the transaction reference. An admin checks it and credits your balance.'}
          </Text>
          <Select
            label="Currency"
            required
            placeholder={allowed.length === 0 ? 'No currency allows this yet' : 'Choose a currency'}
            data={allowed.map((c) => ({ value: String(c.currencyId), label: `${c.name} (${c.ticker})` }))}
            {...form.getInputProps('currencyId')}
          />
          <AmountField
            input={{ ...form.getInputProps('amount'), 'data-autofocus': true }}
            setValue={(text) => form.setFieldValue('amount', text)}
            currency={currency}
            available={available}
            max={max}
            problem={problem}
          />
          {isWithdrawal ? (
            <WithdrawAddressPicker
              saved={saved}
              allowListOnly={allowListOnly}
              currencyChosen={currency !== undefined}
              input={form.getInputProps('walletAddress')}
              value={form.values.walletAddress}
              onPick={(a) => form.setFieldValue('walletAddress', a)}
              onLeave={close}
            />
          ) : (
            <TextInput label="Wallet address" required autoComplete="off" {...form.getInputProps('walletAddress')} />
          )}
          {!isWithdrawal && (
            <TextInput label="Transaction reference" required autoComplete="off" {...form.getInputProps('reference')} />
          )}
          {currency && tax !== null && parsed !== null && problem === null && (
            <Alert variant="light" color={tax > 0n ? 'yellow' : 'blue'} p="xs">
              <Text size="sm">
                {tax > 0n
                  ? isWithdrawal
                    ? `Withdrawal tax ${fractionToPercent(taxRate)}%: ${fmt(tax)}. ${fmt(parsed + tax)} leaves your balance.`
                    : `Deposit tax ${fractionToPercent(taxRate)}%: ${fmt(tax)}. You receive ${fmt(parsed - tax)} once approved.`
                  : `No ${isWithdrawal ? 'withdrawal' : 'deposit'} tax on ${currency.ticker}.`}
              </Text>
            </Alert>
          )}
          {stepUp && <StepUpCodeField {...form.getInputProps('mfaCode')} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={pending} disabled={!ready}>
              {isWithdrawal ? 'Withdraw' : 'Claim deposit'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
