/**
 * Admin Console → User Control → API keys (DESIGN §11.2): a member's keys by nickname (never their
 * secrets) and Revoke, written to the admin log (Revoke User API Key).
 */
import { Card, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ApiKeyList } from '../../../components/ApiKeyList.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useRevokeUserApiKey, useUserApiKeys } from '../api/user-api-keys.ts';
import { NicknameLookup } from './NicknameLookup.tsx';

export function UserApiKeysPanel() {
  const [nickname, setNickname] = useState('');
  const keys = useUserApiKeys(nickname);
  const revoke = useRevokeUserApiKey();
  const list = keys.data?.apiKeys ?? [];

  return (
    <Card withBorder radius="md" p={{ base: 'sm', sm: 'lg' }} component="section" aria-labelledby="user-api-keys-title">
      <Stack>
        <div>
          <Title order={3} id="user-api-keys-title">
            API keys
          </Title>
          <Text size="sm" c="dimmed">
            A member's API keys (never their secrets). Revoking one refuses it at once and is written to the admin log.
          </Text>
        </div>
        <NicknameLookup action="Show keys" onLookup={setNickname} />
        {nickname === '' ? null : keys.isPending ? (
          <Text c="dimmed">Loading…</Text>
        ) : keys.isError ? (
          <Text size="sm" c="red" role="alert">
            {errorMessage(keys.error)}
          </Text>
        ) : (
          <>
            <Text size="sm" data-testid="user-api-keys-message">
              {keys.data.message}
            </Text>
            {list.length > 0 && (
              <ApiKeyList
                apiKeys={list}
                label={`${nickname}'s API keys`}
                revoking={revoke.isPending}
                onRevoke={async (k) => {
                  try {
                    toastSuccess((await revoke.mutateAsync({ nickname, _id: k._id })).message);
                  } catch (err) {
                    toastError(errorMessage(err));
                  }
                }}
              />
            )}
          </>
        )}
      </Stack>
    </Card>
  );
}
