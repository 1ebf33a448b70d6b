/**
 * Settings → API keys (DESIGN §11.2): the member's keys (name, prefix, scopes, addresses, expiry, created,
 * last used), New key (`CreateApiKeyDialog`, the secret shown once) and Revoke with a confirmation. Up to
 * ten keys; keys are managed only from a signed-in session.
 */
import { Button, Card, Code, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { MAX_API_KEYS } from '@starlight/shared';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { ApiKeyList } from '../../../components/ApiKeyList.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useApiKeys, useRevokeApiKey } from '../api/api-keys.ts';
import { CreateApiKeyDialog } from './CreateApiKeyDialog.tsx';

export function ApiKeysCard() {
  const keys = useApiKeys();
  const revoke = useRevokeApiKey();
  const [creating, setCreating] = useState(false);
  const list = keys.data?.apiKeys ?? [];

  return (
    <Card withBorder radius="md" component="section" aria-labelledby="api-keys-title">
      <Stack>
        <Group justify="space-between" align="flex-start">
          <Title order={3} size="h4" id="api-keys-title">
            API keys
          </Title>
          <Button size="xs" leftSection={<IconPlus size={14} />} onClick={() => setCreating(true)}>
            New key
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          Programs call the Starlight API as you with a key in an <Code>x-api-key</Code> header, only for its scopes and
          from its addresses. Keep keys secret. Up to {MAX_API_KEYS} keys; they never work on admin routes.
        </Text>
        {keys.isPending ? (
          <Loader size="sm" aria-label="Loading API keys" />
        ) : keys.isError ? (
          <Text size="sm" c="red">
            {errorMessage(keys.error)}
          </Text>
        ) : list.length === 0 ? (
          <Text size="sm" c="dimmed" ta="center" py="md" data-testid="api-keys-empty">
            You have no API keys yet. Press New key to make one.
          </Text>
        ) : (
          <ApiKeyList
            apiKeys={list}
            label="API keys"
            revoking={revoke.isPending}
            onRevoke={async (k) => {
              try {
                toastSuccess((await revoke.mutateAsync({ _id: k._id })).message);
              } catch (err) {
                toastError(errorMessage(err));
              }
            }}
          />
        )}
      </Stack>
      <CreateApiKeyDialog opened={creating} onClose={() => setCreating(false)} />
    </Card>
  );
}
