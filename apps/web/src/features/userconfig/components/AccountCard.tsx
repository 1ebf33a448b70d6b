/**
 * SPEC §2 Settings: the account's nickname and e-mail. Wallet-only members change them here (dialogs
 * with repeat entry); members with a password change that below (ChangePasswordCard).
 */
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { email as emailSchema, nickname as nicknameSchema, type User } from '@starlight/shared';
import { useState } from 'react';
import { ChangeFieldModal } from './ChangeFieldModal.tsx';

function Field({ label, value, action }: { label: string; value: string; action?: React.ReactNode }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm">
      <div style={{ minWidth: 0 }}>
        <Text size="sm" c="dimmed">
          {label}
        </Text>
        <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
          {value}
        </Text>
      </div>
      {action}
    </Group>
  );
}

export function AccountCard({ user }: { user: User }) {
  const [editing, setEditing] = useState<'nickname' | 'email' | null>(null);
  const close = () => setEditing(null);
  return (
    <Card withBorder radius="md">
      <Stack>
        <Title order={3} size="h4">
          Account
        </Title>
        <Field
          label="Nickname"
          value={user.nickname}
          action={
            user.isWalletOnly && (
              <Button variant="light" size="xs" onClick={() => setEditing('nickname')}>
                Change nickname
              </Button>
            )
          }
        />
        <Field
          label="E-mail"
          value={user.email ?? 'No e-mail yet'}
          action={
            user.isWalletOnly && (
              <Button variant="light" size="xs" onClick={() => setEditing('email')}>
                {user.email ? 'Change e-mail' : 'Add e-mail'}
              </Button>
            )
          }
        />
        {user.primaryWallet && <Field label="Wallet" value={user.primaryWallet} />}
      </Stack>
      <ChangeFieldModal
        field="nickname"
        label="New nickname"
        mismatch="Nicknames do not match"
        schema={nicknameSchema}
        opened={editing === 'nickname'}
        onClose={close}
      />
      <ChangeFieldModal
        field="email"
        label="New e-mail"
        mismatch="Emails do not match"
        schema={emailSchema}
        opened={editing === 'email'}
        onClose={close}
      />
    </Card>
  );
}
