/**
 * Settings → Withdrawal addresses (DESIGN §11.2): the member's saved addresses (label, currency, the whole
 * address, its state), Add address (`AddWithdrawAddressDialog`: confirmed by a mailed link, usable after a
 * hold), Remove with a confirmation, and the "Allowed addresses only" switch: on at once; off after the
 * same hold ("Stays on until …"), with the authenticator's code when two-factor authentication is on. A
 * running security hold (after a password reset, an e-mail change or two-factor turned off) is said here too.
 */
import { Alert, Button, Card, Group, Loader, Modal, Stack, Switch, Text, Title } from '@mantine/core';
import { formatDate, MAX_WITHDRAW_ADDRESSES } from '@starlight/shared';
import { IconLock, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { StepUpCodeField, stepUpCode } from '../../../components/StepUpCodeField.tsx';
import { WithdrawAddressList } from '../../../components/WithdrawAddressList.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useSession } from '../../../lib/session.ts';
import {
  isAllowListInForce,
  isTurningOff,
  pausedUntil,
  useWithdrawAddresses,
} from '../../../lib/withdraw-addresses.ts';
import { useRemoveWithdrawAddress, useSetAllowListOnly } from '../api/withdraw-addresses.ts';
import { AddWithdrawAddressDialog } from './AddWithdrawAddressDialog.tsx';

/** The code asked before the switch goes off, when the member has a second factor. */
function TurnOffDialog({
  opened,
  pending,
  onCancel,
  onConfirm,
}: {
  opened: boolean;
  pending: boolean;
  onCancel: () => void;
  onConfirm: (code: string) => Promise<boolean>;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setCode('');
    setError(null);
    onCancel();
  };
  return (
    <Modal opened={opened} onClose={close} title="Turn off allowed addresses only" centered>
      <form
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          setError(null);
          try {
            if (await onConfirm(code)) setCode('');
          } catch (err) {
            setError(errorMessage(err));
          }
        }}
      >
        <Stack>
          <Text size="sm">
            Withdrawals to any address are allowed again only after a waiting time; until then the switch stays on.
          </Text>
          <StepUpCodeField value={code} onChange={(e) => setCode(e.currentTarget.value)} data-autofocus />
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={pending} disabled={code.trim().length < 6}>
              Turn off
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export function WithdrawAddressesCard() {
  const list = useWithdrawAddresses();
  const remove = useRemoveWithdrawAddress();
  const setSwitch = useSetAllowListOnly();
  const { byId } = useCurrencies();
  const stepUp = useSession((s) => s.user?.mfa?.totp ?? false);
  const [adding, setAdding] = useState(false);
  const [askingCode, setAskingCode] = useState(false);
  const data = list.data;
  const addresses = data?.addresses ?? [];
  const turningOff = data ? isTurningOff(data) : false;
  const paused = pausedUntil(data);

  /** Sends the switch; true when it went through (a failure is toasted, or thrown for the code dialog). */
  const send = async (on: boolean, code = '', throwing = false): Promise<boolean> => {
    try {
      toastSuccess((await setSwitch.mutateAsync({ on, ...stepUpCode(stepUp, code) })).message);
      return true;
    } catch (err) {
      if (throwing) throw err;
      toastError(errorMessage(err));
      return false;
    }
  };

  return (
    <Card
      withBorder
      radius="md"
      component="section"
      aria-labelledby="withdraw-addresses-title"
      id="withdrawal-addresses"
    >
      <Stack>
        <Group justify="space-between" align="flex-start">
          <Title order={3} size="h4" id="withdraw-addresses-title">
            Withdrawal addresses
          </Title>
          <Button size="xs" leftSection={<IconPlus size={14} />} onClick={() => setAdding(true)}>
            Add address
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          Wallets you withdraw to. A new address is confirmed by a link we e-mail you, and can be used some time after
          that. Up to {MAX_WITHDRAW_ADDRESSES} addresses.
        </Text>
        {paused && (
          <Alert color="orange" variant="light" icon={<IconLock size={16} />} role="status">
            Withdrawals are paused until {formatDate(paused)} after a change to your account's security.
          </Alert>
        )}
        {list.isPending ? (
          <Loader size="sm" aria-label="Loading withdrawal addresses" />
        ) : list.isError ? (
          <Text size="sm" c="red" role="alert">
            {errorMessage(list.error)}
          </Text>
        ) : (
          <>
            <Stack gap={4}>
              <Switch
                label="Allowed addresses only"
                description="Refuse withdrawals to any address that is not active in this list."
                checked={list.data.allowListOnly && !turningOff}
                disabled={setSwitch.isPending}
                onChange={(e) => {
                  const on = e.currentTarget.checked;
                  if (on || !stepUp) void send(on);
                  else setAskingCode(true);
                }}
              />
              {turningOff && list.data.allowListOffFrom && (
                <Text size="sm" c="orange" data-testid="allow-list-off-from">
                  Stays on until {formatDate(list.data.allowListOffFrom)}
                </Text>
              )}
              {!turningOff && isAllowListInForce(list.data) && addresses.every((a) => a.state !== 'active') && (
                <Text size="sm" c="dimmed">
                  You have no active address yet, so every withdrawal is refused for now.
                </Text>
              )}
            </Stack>
            {addresses.length === 0 ? (
              <Text size="sm" c="dimmed" ta="center" py="md" data-testid="withdraw-addresses-empty">
                You have no withdrawal addresses yet. Press Add address to save one.
              </Text>
            ) : (
              <WithdrawAddressList
                addresses={addresses}
                label="Withdrawal addresses"
                tickerOf={(id) => byId.get(id)?.ticker ?? `#${id}`}
                removing={remove.isPending}
                onRemove={async (a) => {
                  try {
                    toastSuccess((await remove.mutateAsync({ _id: a._id })).message);
                  } catch (err) {
                    toastError(errorMessage(err));
                  }
                }}
              />
            )}
          </>
        )}
      </Stack>
      <AddWithdrawAddressDialog opened={adding} onClose={() => setAdding(false)} />
      <TurnOffDialog
        opened={askingCode}
        pending={setSwitch.isPending}
        onCancel={() => setAskingCode(false)}
        onConfirm={async (code) => {
          const done = await send(false, code, true);
          if (done) setAskingCode(false);
          return done;
        }}
      />
    </Card>
  );
}
