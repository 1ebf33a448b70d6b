/**
 * The Withdraw popup's address (DESIGN §11.2): the member's active saved addresses for the chosen currency
 * in a select (picking one fills the address), and the address typed by hand, unless "Allowed addresses
 * only" is in force: then only a saved, active address can be chosen, with a hint and a way to Settings to
 * add one.
 */
import { Anchor, Select, Text, TextInput, type TextInputProps } from '@mantine/core';
import type { WithdrawAddress } from '@starlight/shared';
import { Link } from '@tanstack/react-router';

/** An address shortened for a select's line: the whole one shows under it. */
const shortened = (a: string) => (a.length > 16 ? `${a.slice(0, 8)}…${a.slice(-6)}` : a);

/** The saved address that `typed` is, if any (addresses are kept lower-case). */
export function savedAddressOf(saved: WithdrawAddress[], typed: string): WithdrawAddress | undefined {
  const wanted = typed.trim().toLowerCase();
  return saved.find((a) => a.walletAddress === wanted);
}

export function WithdrawAddressPicker({
  saved,
  allowListOnly,
  currencyChosen,
  input,
  value,
  onPick,
  onLeave,
}: {
  /** The active saved addresses of the chosen currency. */
  saved: WithdrawAddress[];
  /** Only a saved, active address may be used. */
  allowListOnly: boolean;
  /** Whether a currency is chosen (the saved addresses are per currency). */
  currencyChosen: boolean;
  /** The wallet address field's props (the form's). */
  input: TextInputProps;
  /** The address as it stands. */
  value: string;
  /** Sets the address to a saved one's. */
  onPick: (walletAddress: string) => void;
  /** Called when the member follows the link to Settings (the popup closes). */
  onLeave: () => void;
}) {
  const picked = savedAddressOf(saved, value);
  const select =
    saved.length > 0 || allowListOnly ? (
      <Select
        label="Saved address"
        required={allowListOnly}
        placeholder={
          !currencyChosen
            ? 'Choose a currency first'
            : saved.length === 0
              ? 'No active address for this currency'
              : 'Choose one of your addresses'
        }
        disabled={saved.length === 0}
        data={saved.map((a) => ({ value: a._id, label: `${a.label} (${shortened(a.walletAddress)})` }))}
        value={picked?._id ?? null}
        onChange={(id) => {
          const a = saved.find((s) => s._id === id);
          if (a) onPick(a.walletAddress);
        }}
        description={allowListOnly && picked ? picked.walletAddress : undefined}
        styles={{ description: { overflowWrap: 'anywhere' } }}
      />
    ) : null;

  if (!allowListOnly) {
    return (
      <>
        {select}
        <TextInput
          label="Wallet address"
          description={saved.length > 0 ? 'Pick a saved address above, or type another one' : undefined}
          required
          autoComplete="off"
          {...input}
        />
      </>
    );
  }
  return (
    <>
      {select}
      <Text size="sm" c="dimmed" data-testid="allow-list-hint">
        Allowed addresses only is on: you can withdraw only to an active address from your list.{' '}
        <Anchor component={Link} to="/userconfig" hash="withdrawal-addresses" size="sm" onClick={onLeave}>
          Add an address
        </Anchor>
      </Text>
    </>
  );
}
