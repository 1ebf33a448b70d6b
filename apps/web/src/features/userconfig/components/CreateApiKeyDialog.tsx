/**
 * Settings → API keys → New key (DESIGN §11.2): a name, the scopes (read, trade, transfer, withdraw), the
 * addresses it may be used from (one address or CIDR range a line; none: any) and an optional expiry day.
 * With two-factor authentication on, the authenticator's code too (DESIGN §11.1 step-up). The server's answer
 * holds the secret: it is shown once, with Copy, and never again.
 */
import {
  Alert,
  Button,
  Checkbox,
  Code,
  CopyButton,
  Group,
  Modal,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { API_KEY_SCOPES, type ApiKeyScope, type CreateApiKeyResponse } from '@starlight/shared';
import { IconAlertTriangle, IconCopy } from '@tabler/icons-react';
import { useState } from 'react';
import { DateFilterInput } from '../../../components/DateFilterInput.tsx';
import { StepUpCodeField, stepUpCode } from '../../../components/StepUpCodeField.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { toastSuccess } from '../../../lib/notify.ts';
import { useSession } from '../../../lib/session.ts';
import { useCreateApiKey } from '../api/api-keys.ts';

const SCOPE_HELP: Record<ApiKeyScope, string> = {
  read: 'Read your balances, history, orders and items',
  trade: 'Place and cancel exchange orders',
  transfer: 'Transfers, distributions, forge, synth chips and items',
  withdraw: 'Withdrawals and deposits',
};

/** The end of a chosen day (`YYYY-MM-DD`) in the member's own time zone, as an ISO date-time. */
function endOfDay(day: string): string {
  return new Date(`${day}T23:59:59`).toISOString();
}

function SecretShown({ made, onDone }: { made: CreateApiKeyResponse; onDone: () => void }) {
  return (
    <Stack>
      <Alert color="yellow" icon={<IconAlertTriangle size={16} />} title="Copy your key now">
        This is the only time the key is shown. Store it somewhere safe; if you lose it, revoke it and make another.
      </Alert>
      <Code
        block
        data-testid="api-key-secret"
        aria-label="New API key"
        style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
      >
        {made.secret}
      </Code>
      <Group justify="flex-end">
        <CopyButton value={made.secret}>
          {({ copy }) => (
            <Button
              variant="default"
              leftSection={<IconCopy size={14} />}
              onClick={() => {
                copy();
                toastSuccess('API key copied to clipboard');
              }}
            >
              Copy
            </Button>
          )}
        </CopyButton>
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}

export function CreateApiKeyDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useCreateApiKey();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(['read']);
  const [addresses, setAddresses] = useState('');
  const [expiry, setExpiry] = useState<string | null>(null);
  const stepUp = useSession((s) => s.user?.mfa?.totp ?? false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [made, setMade] = useState<CreateApiKeyResponse | null>(null);

  const close = () => {
    setName('');
    setScopes(['read']);
    setAddresses('');
    setExpiry(null);
    setCode('');
    setError(null);
    setMade(null);
    create.reset();
    onClose();
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    const allowedIps = addresses
      .split(/[\s,]+/)
      .map((a) => a.trim())
      .filter(Boolean);
    try {
      const res = await create.mutateAsync({
        name: name.trim(),
        scopes: scopes as ApiKeyScope[],
        ...(allowedIps.length > 0 ? { allowedIps } : {}),
        ...(expiry ? { expiresAt: endOfDay(expiry) } : {}),
        ...stepUpCode(stepUp, code),
      });
      setMade(res);
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={made ? 'Your new API key' : 'New API key'} centered>
      {made ? (
        <SecretShown made={made} onDone={close} />
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput
              label="Name"
              description="So you can tell your keys apart"
              required
              maxLength={64}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              data-autofocus
            />
            <Checkbox.Group
              label="Scopes"
              description="What programs may do with this key"
              value={scopes}
              onChange={setScopes}
              required
            >
              <Stack gap="xs" mt="xs">
                {API_KEY_SCOPES.map((s) => (
                  <Checkbox key={s} value={s} label={s} description={SCOPE_HELP[s]} />
                ))}
              </Stack>
            </Checkbox.Group>
            <Textarea
              label="Allowed addresses"
              description="One IP address or CIDR range a line (IPv4 or IPv6); leave empty for any address"
              placeholder={'203.0.113.7\n2001:db8::/48'}
              autosize
              minRows={2}
              value={addresses}
              onChange={(e) => setAddresses(e.currentTarget.value)}
            />
            <DateFilterInput label="Expires on (optional)" value={expiry} onChange={setExpiry} />
            {stepUp && <StepUpCodeField value={code} onChange={(e) => setCode(e.currentTarget.value)} />}
            {error && (
              <Text size="sm" c="red" role="alert">
                {error}
              </Text>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button
                type="submit"
                loading={create.isPending}
                disabled={name.trim() === '' || scopes.length === 0 || (stepUp && code.trim().length < 6)}
              >
                Create key
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
