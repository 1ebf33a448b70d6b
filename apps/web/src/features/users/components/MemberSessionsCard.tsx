/**
 * User Control → Member sessions (DESIGN §11.1): an admin looks a member up by nickname and sees where
 * they are signed in (device, address, signed in, last seen, whether the sign-in passed a second factor),
 * then may end all their sessions (they are signed out everywhere at once) or reset their two-factor
 * authentication (for a member who lost their authenticator and passkeys), or delete their account
 * (DESIGN §11.6: refused while it holds value). Each asks first and is written to the admin log.
 */
import { Box, Button, Card, Group, Loader, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import type { SessionInfo } from '@starlight/shared';
import { IconLogout, IconSearch, IconShieldOff, IconUserX } from '@tabler/icons-react';
import { useState } from 'react';
import { SessionSummary } from '../../../components/SessionSummary.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import {
  useDeleteMemberAccount,
  useEndMemberSessions,
  useMemberSessions,
  useResetMemberMfa,
} from '../api/member-sessions.ts';

function MemberSessionRow({ session }: { session: SessionInfo }) {
  return (
    <Box role="listitem" aria-label={session.device}>
      <SessionSummary
        session={session}
        {...(session.secondFactor ? { badge: { label: 'Two-factor', color: 'teal' } } : {})}
      />
    </Box>
  );
}

/** What the confirmation dialog asks about. */
type Pending = 'end' | 'reset' | 'delete' | null;

const CONFIRM: Record<Exclude<Pending, null>, { title: string; body: (n: string) => string; action: string }> = {
  end: {
    title: 'End all sessions',
    body: (n) => `End every session of ${n}? They are signed out on every device at once and must sign in again.`,
    action: 'End all sessions',
  },
  reset: {
    title: 'Reset two-factor',
    body: (n) =>
      `Turn off two-factor authentication for ${n}? Their authenticator app, recovery codes and passkeys stop working; they sign in with their password and can set them up again.`,
    action: 'Reset two-factor',
  },
  delete: {
    title: 'Delete account',
    body: (n) =>
      `Delete the account of ${n}? Their nickname, e-mail, wallet, password, keys and sessions are removed and they cannot sign in again; their transactions stay in the ledger under "deleted-…". An account that still holds a balance, open orders or a forge process cannot be deleted.`,
    action: 'Delete account',
  },
};

const CONFIRM_COLOR: Record<Exclude<Pending, null>, string> = { end: 'red', reset: 'orange', delete: 'red' };

export function MemberSessionsCard() {
  const [typed, setTyped] = useState('');
  const [nickname, setNickname] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const sessions = useMemberSessions(nickname);
  const endAll = useEndMemberSessions();
  const resetMfa = useResetMemberMfa();
  const deleteAccount = useDeleteMemberAccount();
  const list = sessions.data?.sessions ?? [];
  const busy = endAll.isPending || resetMfa.isPending || deleteAccount.isPending;

  const lookUp = (e: React.FormEvent) => {
    e.preventDefault();
    const name = typed.trim();
    if (name === '') return;
    if (name === nickname) void sessions.refetch();
    setNickname(name);
  };

  const confirm = async () => {
    if (!nickname || !pending) return;
    try {
      const mutation = { end: endAll, reset: resetMfa, delete: deleteAccount }[pending];
      toastSuccess((await mutation.mutateAsync({ nickname })).message);
      // A deleted account has no nickname to look up any more.
      if (pending === 'delete') {
        setNickname(null);
        setTyped('');
      }
      setPending(null);
    } catch (err) {
      toastError(errorMessage(err));
    }
  };

  return (
    <Card
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'lg' }}
      component="section"
      aria-labelledby="member-sessions-title"
      data-testid="member-sessions"
    >
      <Stack>
        <div>
          <Title order={3} id="member-sessions-title">
            Member sessions
          </Title>
          <Text size="sm" c="dimmed">
            Where a member is signed in. End them all for a member whose account may be in someone else's hands.
          </Text>
        </div>
        <form onSubmit={lookUp} noValidate>
          <Group align="flex-end" gap="sm">
            <TextInput
              label="Member nickname"
              value={typed}
              onChange={(e) => setTyped(e.currentTarget.value)}
              style={{ flex: '1 1 200px' }}
              autoComplete="off"
            />
            <Button type="submit" leftSection={<IconSearch size={16} />} disabled={typed.trim() === ''}>
              Look up
            </Button>
          </Group>
        </form>
        {nickname !== null &&
          (sessions.isPending ? (
            <Loader size="sm" aria-label="Loading sessions" />
          ) : sessions.isError ? (
            <Text size="sm" c="red" role="alert">
              {errorMessage(sessions.error)}
            </Text>
          ) : (
            <Stack gap="md">
              <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                {sessions.data?.message}
              </Text>
              {list.length === 0 ? (
                <Text size="sm" c="dimmed">
                  No active sessions: {nickname} is not signed in anywhere.
                </Text>
              ) : (
                <Stack gap="md" role="list" aria-label={`Sessions of ${nickname}`}>
                  {list.map((s) => (
                    <MemberSessionRow key={s._id} session={s} />
                  ))}
                </Stack>
              )}
              <Group gap="sm">
                <Button
                  color="red"
                  variant="light"
                  leftSection={<IconLogout size={16} />}
                  disabled={list.length === 0 || busy}
                  onClick={() => setPending('end')}
                >
                  End all sessions
                </Button>
                <Button
                  color="orange"
                  variant="light"
                  leftSection={<IconShieldOff size={16} />}
                  disabled={busy}
                  onClick={() => setPending('reset')}
                >
                  Reset two-factor
                </Button>
                <Button
                  color="red"
                  variant="outline"
                  leftSection={<IconUserX size={16} />}
                  disabled={busy}
                  onClick={() => setPending('delete')}
                >
                  Delete account
                </Button>
              </Group>
            </Stack>
          ))}
      </Stack>
      <Modal
        opened={pending !== null}
        onClose={() => setPending(null)}
        title={pending && CONFIRM[pending].title}
        centered
      >
        {pending && nickname && (
          <Stack>
            <Text size="sm">{CONFIRM[pending].body(nickname)}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setPending(null)}>
                Cancel
              </Button>
              <Button color={CONFIRM_COLOR[pending]} loading={busy} onClick={() => void confirm()}>
                {CONFIRM[pending].action}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Card>
  );
}
