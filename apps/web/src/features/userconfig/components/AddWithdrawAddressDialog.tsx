/**
 * Settings → Withdrawal addresses → Add address (DESIGN §11.2): a currency that allows withdrawals, the
 * wallet address, a label to know it by and, with two-factor authentication on, the authenticator's code
 * (DESIGN §11.1 step-up). The server mails a link; the dialog then says to open it, and the address is
 * usable some time after that (the list says from when).
 */
import { Alert, Button, Group, Modal, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { walletAddress } from '@starlight/shared';
import { IconMailForward } from '@tabler/icons-react';
import { useState } from 'react';
import { StepUpCodeField, stepUpCode } from '../../../components/StepUpCodeField.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { useSession } from '../../../lib/session.ts';
import { useAddWithdrawAddress } from '../api/withdraw-addresses.ts';

export function AddWithdrawAddressDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const add = useAddWithdrawAddress();
  const { data: currencies = [] } = useCurrencies();
  const withdrawable = currencies.filter((c) => c.canWithdraw);
  const stepUp = useSession((s) => s.user?.mfa?.totp ?? false);
  const [currencyId, setCurrencyId] = useState<string | null>(null);
  const [address, setAddress] = useState('');
  const [label, setLabel] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);

  const close = () => {
    setCurrencyId(null);
    setAddress('');
    setLabel('');
    setCode('');
    setError(null);
    setSent(null);
    add.reset();
    onClose();
  };

  const typed = address.trim();
  const addressProblem =
    typed !== '' && !walletAddress.safeParse(typed).success ? 'A wallet address is 10 to 50 characters' : null;
  const ready =
    currencyId !== null &&
    typed !== '' &&
    addressProblem === null &&
    label.trim() !== '' &&
    (!stepUp || code.trim().length >= 6);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!ready) return;
    setError(null);
    try {
      const res = await add.mutateAsync({
        currencyId: Number(currencyId),
        walletAddress: typed,
        label: label.trim(),
        ...stepUpCode(stepUp, code),
      });
      setSent(res.message);
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={sent ? 'Check your e-mail' : 'Add withdrawal address'} centered>
      {sent !== null ? (
        <Stack>
          <Alert color="teal" icon={<IconMailForward size={16} />} role="status">
            <Text size="sm">{sent}</Text>
            <Text size="sm" mt="xs">
              Open the link in that e-mail to confirm the address. Your list then shows from when you can withdraw to
              it.
            </Text>
          </Alert>
          <Group justify="flex-end">
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <Select
              label="Currency"
              required
              placeholder={withdrawable.length === 0 ? 'No currency allows withdrawals yet' : 'Choose a currency'}
              data={withdrawable.map((c) => ({ value: String(c.currencyId), label: `${c.name} (${c.ticker})` }))}
              value={currencyId}
              onChange={setCurrencyId}
              data-autofocus
            />
            {/* Wrapped, so the whole address can be checked on a phone too; it is one line, so Enter sends. */}
            <Textarea
              label="Wallet address"
              required
              autosize
              minRows={1}
              autoComplete="off"
              autoCapitalize="off"
              autoCorrect="off"
              spellCheck={false}
              maxLength={50}
              value={address}
              onChange={(e) => setAddress(e.currentTarget.value.replace(/\s+/g, ''))}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  e.currentTarget.form?.requestSubmit();
                }
              }}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', wordBreak: 'break-all' } }}
              error={addressProblem}
            />
            <TextInput
              label="Label"
              description="So you can tell your addresses apart, like “My hardware wallet”"
              required
              maxLength={40}
              value={label}
              onChange={(e) => setLabel(e.currentTarget.value)}
            />
            {stepUp && <StepUpCodeField value={code} onChange={(e) => setCode(e.currentTarget.value)} />}
            {error && (
              <Alert color="red" variant="light" role="alert">
                {error}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={add.isPending} disabled={!ready}>
                Add address
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
