/**
 * A list of API keys (DESIGN §11.2) as Settings and the admin's User Control show them: name, prefix,
 * scopes, allowed addresses, expiry, created and last used, never a secret; Revoke asks first.
 */
import { Badge, Group, Stack, Text } from '@mantine/core';
import { type ApiKeyInfo, formatDate } from '@starlight/shared';
import { IconKey } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDeleteModal } from './ConfirmDeleteModal.tsx';
import { CredentialRow } from './CredentialRow.tsx';

function KeyRow({ apiKey, onRevoke }: { apiKey: ApiKeyInfo; onRevoke: () => void }) {
  const expired = apiKey.expiresAt !== null && new Date(apiKey.expiresAt).getTime() <= Date.now();
  return (
    <CredentialRow
      label={apiKey.name}
      icon={<IconKey size={20} />}
      title={
        <>
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {apiKey.name}
          </Text>
          <Text size="sm" ff="monospace" c="dimmed" data-testid="api-key-prefix">
            {apiKey.prefix}…
          </Text>
          {expired && (
            <Badge size="sm" color="red" variant="light">
              Expired
            </Badge>
          )}
        </>
      }
      action={{ label: 'Revoke', onClick: onRevoke }}
    >
      <Group gap={4}>
        {apiKey.scopes.map((s) => (
          <Badge key={s} size="sm" variant="outline">
            {s}
          </Badge>
        ))}
      </Group>
      <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {apiKey.allowedIps.length === 0 ? 'Any address' : `From ${apiKey.allowedIps.join(', ')}`}
      </Text>
      <Text size="xs" c="dimmed">
        Created {formatDate(apiKey.createdAt)} · last used {apiKey.lastUsedAt ? formatDate(apiKey.lastUsedAt) : 'never'}{' '}
        · {apiKey.expiresAt ? `${expired ? 'expired' : 'expires'} ${formatDate(apiKey.expiresAt)}` : 'no expiry'}
      </Text>
    </CredentialRow>
  );
}

export function ApiKeyList({
  apiKeys,
  label,
  revoking,
  onRevoke,
}: {
  apiKeys: ApiKeyInfo[];
  /** The list's accessible name. */
  label: string;
  /** True while a revoke request runs. */
  revoking: boolean;
  /** Revokes a key; resolves when done (the dialog then closes). */
  onRevoke: (key: ApiKeyInfo) => Promise<void>;
}) {
  const [asked, setAsked] = useState<ApiKeyInfo | null>(null);
  return (
    <>
      <Stack gap="md" role="list" aria-label={label}>
        {apiKeys.map((k) => (
          <KeyRow key={k._id} apiKey={k} onRevoke={() => setAsked(k)} />
        ))}
      </Stack>
      <ConfirmDeleteModal
        opened={asked !== null}
        title="Revoke API key"
        deleting={revoking}
        confirmLabel="Revoke"
        onCancel={() => setAsked(null)}
        onConfirm={() => {
          if (asked) void onRevoke(asked).then(() => setAsked(null));
        }}
      >
        Revoke <b>{asked?.name}</b> ({asked?.prefix}…)? Programs using it are refused at once. This cannot be undone.
      </ConfirmDeleteModal>
    </>
  );
}
