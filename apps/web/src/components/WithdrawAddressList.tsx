/**
 * A list of withdrawal addresses (DESIGN §11.2) as Settings and the admin's User Control show them: the
 * label, the currency, the whole address (wrapped, never cut) and its state: "Confirm by e-mail" until the
 * mailed link is opened, "Usable from {date}" during the hold, then "Active". With `onRemove`, each row has
 * Remove, asked first.
 */
import { Badge, Group, Stack, Text } from '@mantine/core';
import { formatDate, type WithdrawAddress } from '@starlight/shared';
import { IconWallet } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDeleteModal } from './ConfirmDeleteModal.tsx';
import { CredentialRow } from './CredentialRow.tsx';

/** The words of an address's state badge, and its colour. */
export function stateBadge(address: WithdrawAddress): { text: string; color: string } {
  switch (address.state) {
    case 'unconfirmed':
      return { text: 'Confirm by e-mail', color: 'yellow' };
    case 'waiting':
      return {
        text: address.activeFrom ? `Usable from ${formatDate(address.activeFrom)}` : 'Waiting',
        color: 'blue',
      };
    case 'active':
      return { text: 'Active', color: 'teal' };
  }
}

function AddressRow({
  address,
  ticker,
  onRemove,
}: {
  address: WithdrawAddress;
  ticker: string;
  onRemove?: () => void;
}) {
  const badge = stateBadge(address);
  return (
    <CredentialRow
      label={address.label}
      icon={<IconWallet size={20} />}
      title={
        <>
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {address.label}
          </Text>
          <Badge size="sm" variant="outline">
            {ticker}
          </Badge>
        </>
      }
      {...(onRemove ? { action: { label: 'Remove', onClick: onRemove } } : {})}
    >
      <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }} data-testid="withdraw-address">
        {address.walletAddress}
      </Text>
      <Group gap="xs">
        <Badge size="sm" variant="light" color={badge.color} style={{ textTransform: 'none' }}>
          {badge.text}
        </Badge>
        <Text size="xs" c="dimmed">
          Added {formatDate(address.createdAt)}
        </Text>
      </Group>
    </CredentialRow>
  );
}

export function WithdrawAddressList({
  addresses,
  label,
  tickerOf,
  removing = false,
  onRemove,
}: {
  addresses: WithdrawAddress[];
  /** The list's accessible name. */
  label: string;
  /** The ticker of a currency id (the id itself when unknown). */
  tickerOf: (currencyId: number) => string;
  /** True while a remove request runs. */
  removing?: boolean;
  /** Removes an address; resolves when done (the dialog then closes). None: the list is read-only. */
  onRemove?: (address: WithdrawAddress) => Promise<void>;
}) {
  const [asked, setAsked] = useState<WithdrawAddress | null>(null);
  return (
    <>
      <Stack gap="md" role="list" aria-label={label}>
        {addresses.map((a) => (
          <AddressRow
            key={a._id}
            address={a}
            ticker={tickerOf(a.currencyId)}
            {...(onRemove ? { onRemove: () => setAsked(a) } : {})}
          />
        ))}
      </Stack>
      {onRemove && (
        <ConfirmDeleteModal
          opened={asked !== null}
          title="Remove withdrawal address"
          deleting={removing}
          confirmLabel="Remove"
          onCancel={() => setAsked(null)}
          onConfirm={() => {
            if (asked) void onRemove(asked).then(() => setAsked(null));
          }}
        >
          Remove <b>{asked?.label}</b> ({asked?.walletAddress})? Adding it again needs a new e-mail confirmation and a
          new wait before it can be used.
        </ConfirmDeleteModal>
      )}
    </>
  );
}
