/**
 * Settings → Passkeys (DESIGN §11.1): the member's passkeys (name, added, last used), Add a passkey (a
 * name, then the browser's prompt) and Remove with a confirmation. Where passkeys cannot work (a page
 * served from an IP address, a browser without WebAuthn) the card says why instead.
 */
import { Button, Card, Group, Loader, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { formatDate, type PasskeyInfo } from '@starlight/shared';
import { IconFingerprint, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDeleteModal } from '../../../components/ConfirmDeleteModal.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { passkeyErrorMessage, passkeysUnavailableReason } from '../../../lib/passkeys.ts';
import { useAddPasskey, usePasskeys, useRemovePasskey } from '../api/passkeys.ts';

function PasskeyRow({ passkey, onRemove }: { passkey: PasskeyInfo; onRemove: () => void }) {
  return (
    <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm" role="listitem" aria-label={passkey.name}>
      <Group gap="sm" wrap="nowrap" align="flex-start" style={{ minWidth: 0 }}>
        <IconFingerprint size={20} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {passkey.name}
          </Text>
          <Text size="xs" c="dimmed">
            Added {formatDate(passkey.createdAt)} ·{' '}
            {passkey.lastUsedAt ? `last used ${formatDate(passkey.lastUsedAt)}` : 'never used'}
          </Text>
        </Stack>
      </Group>
      <Button size="xs" variant="light" color="red" onClick={onRemove} style={{ flexShrink: 0 }}>
        Remove
      </Button>
    </Group>
  );
}

/** The name prompt before the browser's: Enter adds. */
function AddPasskeyModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [name, setName] = useState('');
  const add = useAddPasskey();
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    try {
      toastSuccess((await add.mutateAsync(name)).message);
      setName('');
      onClose();
    } catch (err) {
      toastError(passkeyErrorMessage(err));
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Add a passkey">
      <form onSubmit={(e) => void submit(e)}>
        <Stack gap="sm">
          <Text size="sm">
            Your device will ask you to confirm with its screen lock, fingerprint or security key. Name the passkey so
            you can tell it apart later.
          </Text>
          <TextInput
            label="Name"
            placeholder="e.g. Work laptop"
            maxLength={64}
            data-autofocus
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={add.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={add.isPending}>
              Continue
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export function PasskeysCard() {
  const unavailable = passkeysUnavailableReason();
  const passkeys = usePasskeys(unavailable === null);
  const remove = useRemovePasskey();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<PasskeyInfo | null>(null);
  const list = passkeys.data?.passkeys ?? [];

  const confirmRemove = async () => {
    if (!removing) return;
    try {
      toastSuccess((await remove.mutateAsync(removing)).message);
      setRemoving(null);
    } catch (err) {
      toastError(errorMessage(err));
    }
  };

  return (
    <Card withBorder radius="md" component="section" aria-labelledby="passkeys-title">
      <Stack>
        <Title order={3} size="h4" id="passkeys-title">
          Passkeys
        </Title>
        <Text size="sm" c="dimmed">
          Sign in with your device's screen lock or a security key instead of your password. A passkey counts as two
          factors.
        </Text>
        {unavailable !== null ? (
          <Text size="sm" c="orange" role="status">
            {unavailable}.
          </Text>
        ) : passkeys.isPending ? (
          <Loader size="sm" aria-label="Loading passkeys" />
        ) : passkeys.isError ? (
          <Text size="sm" c="red">
            {errorMessage(passkeys.error)}
          </Text>
        ) : list.length === 0 ? (
          <Text size="sm">You have no passkeys yet.</Text>
        ) : (
          <Stack gap="md" role="list" aria-label="Passkeys">
            {list.map((p) => (
              <PasskeyRow key={p._id} passkey={p} onRemove={() => setRemoving(p)} />
            ))}
          </Stack>
        )}
        {unavailable === null && (
          <Group>
            <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => setAdding(true)}>
              Add a passkey
            </Button>
          </Group>
        )}
      </Stack>
      <AddPasskeyModal opened={adding} onClose={() => setAdding(false)} />
      <ConfirmDeleteModal
        opened={removing !== null}
        title="Remove passkey"
        deleting={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() => void confirmRemove()}
      >
        Remove “{removing?.name}”? You will no longer be able to sign in with it.
      </ConfirmDeleteModal>
    </Card>
  );
}
