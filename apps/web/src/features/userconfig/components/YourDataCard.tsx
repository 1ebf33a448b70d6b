/**
 * Settings, "Your data" (DESIGN §11.6): "Download my data" saves the account's own data as a JSON file;
 * "Delete my account" opens a dialog that asks for the nickname typed to confirm, the password (accounts
 * that have one) and a two-factor code (with a second factor on). The server refuses, saying what to do,
 * while the account holds a balance, escrow or a running forge process.
 */
import { Alert, Button, Card, Group, Modal, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import type { User } from '@starlight/shared';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { StepUpCodeField, stepUpCode } from '../../../components/StepUpCodeField.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useDeleteAccount, useDownloadAccountData } from '../api/data-rights.ts';

function DeleteAccountModal({ user, opened, onClose }: { user: User; opened: boolean; onClose: () => void }) {
  const remove = useDeleteAccount();
  const navigate = useNavigate();
  const [nickname, setNickname] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const hasPassword = !user.isWalletOnly;
  const stepUp = user.mfa?.totp ?? false;
  const confirmed = nickname.trim().toLowerCase() === user.nickname.toLowerCase();
  const ready = confirmed && (!hasPassword || password !== '') && (!stepUp || code.trim().length >= 6);
  const close = () => {
    setNickname('');
    setPassword('');
    setCode('');
    setError(null);
    onClose();
  };
  const submit = async () => {
    setError(null);
    try {
      const res = await remove.mutateAsync({
        confirmNickname: nickname.trim(),
        ...(hasPassword ? { password } : {}),
        ...stepUpCode(stepUp, code),
      });
      toastSuccess(res.message);
      void navigate({ to: '/' });
    } catch (err) {
      // Said in the dialog itself, next to the fields: no toast over it.
      setError(errorMessage(err));
    }
  };
  return (
    <Modal opened={opened} onClose={close} title="Delete my account" centered>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (ready && !remove.isPending) void submit();
        }}
      >
        <Stack>
          <Text size="sm">
            Your nickname, e-mail, wallet, password, passkeys, API keys and sessions are removed and you cannot sign in
            again. Your past transactions stay in the ledger under the name "deleted-…". This cannot be undone.
          </Text>
          {error && (
            <Alert color="red" title="Your account was not deleted">
              {error}
            </Alert>
          )}
          <TextInput
            label={`Type your nickname (${user.nickname}) to confirm`}
            value={nickname}
            onChange={(e) => setNickname(e.currentTarget.value)}
            autoComplete="off"
            required
            data-autofocus
          />
          {hasPassword && (
            <PasswordInput
              label="Password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              autoComplete="current-password"
              required
            />
          )}
          {stepUp && <StepUpCodeField value={code} onChange={(e) => setCode(e.currentTarget.value)} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" color="red" disabled={!ready} loading={remove.isPending}>
              Delete my account
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export function YourDataCard({ user }: { user: User }) {
  const download = useDownloadAccountData();
  const [deleting, setDeleting] = useState(false);
  const save = async () => {
    try {
      await download.mutateAsync();
      toastSuccess('Your data has been downloaded');
    } catch (err) {
      toastError(errorMessage(err));
    }
  };
  return (
    <Card withBorder radius="md" id="your-data">
      <Stack>
        <Title order={3} size="h4">
          Your data
        </Title>
        <Text size="sm" c="dimmed">
          Download everything Starlight keeps about your account as one JSON file: profile, balances, history, items,
          orders, forge processes, checkouts, sessions and sign-ins.
        </Text>
        <Button w="fit-content" variant="light" onClick={save} loading={download.isPending}>
          Download my data
        </Button>
        <Text size="sm" c="dimmed">
          To delete your account, first transfer or withdraw every balance, cancel your open orders and claim your forge
          processes.
        </Text>
        <Button w="fit-content" color="red" variant="outline" onClick={() => setDeleting(true)}>
          Delete my account
        </Button>
      </Stack>
      <DeleteAccountModal user={user} opened={deleting} onClose={() => setDeleting(false)} />
    </Card>
  );
}
