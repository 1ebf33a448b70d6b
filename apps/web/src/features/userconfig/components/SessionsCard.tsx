/**
 * Settings → Sessions (DESIGN §11.1): where the member is signed in (device, address, signed in, last
 * seen), this device marked, and End on any other one or on all others at once. An ended session's
 * token stops working at once everywhere. Its anchor `#sessions` is where security mails link.
 */
import { Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { SessionInfo } from '@starlight/shared';
import { IconLogout } from '@tabler/icons-react';
import { SessionSummary } from '../../../components/SessionSummary.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useEndSessions, useSessions } from '../api/sessions.ts';

function SessionRow({ session, onEnd, ending }: { session: SessionInfo; onEnd: () => void; ending: boolean }) {
  return (
    <Group
      justify="space-between"
      wrap="nowrap"
      align="flex-start"
      gap="sm"
      role="listitem"
      aria-label={session.device}
    >
      <SessionSummary
        session={session}
        {...(session.current ? { badge: { label: 'This device', color: 'green' } } : {})}
      />
      {!session.current && (
        <Button size="xs" variant="light" color="red" loading={ending} onClick={onEnd} style={{ flexShrink: 0 }}>
          End
        </Button>
      )}
    </Group>
  );
}

export function SessionsCard() {
  const sessions = useSessions();
  const end = useEndSessions();
  const list = sessions.data?.sessions ?? [];
  const others = list.filter((s) => !s.current).length;

  const run = async (which: { _id: string } | 'others') => {
    try {
      toastSuccess((await end.mutateAsync(which)).message);
    } catch (err) {
      toastError(errorMessage(err));
    }
  };

  return (
    <Card withBorder radius="md" component="section" aria-labelledby="sessions-title" id="sessions">
      <Stack>
        <Title order={3} size="h4" id="sessions-title">
          Sessions
        </Title>
        <Text size="sm" c="dimmed">
          Where your account is signed in. End a session you do not recognise, then change your password.
        </Text>
        {sessions.isPending ? (
          <Loader size="sm" aria-label="Loading sessions" />
        ) : sessions.isError ? (
          <Text size="sm" c="red">
            {errorMessage(sessions.error)}
          </Text>
        ) : (
          <Stack gap="md" role="list" aria-label="Sessions">
            {list.map((s) => (
              <SessionRow
                key={s._id}
                session={s}
                ending={end.isPending && end.variables !== 'others' && end.variables?._id === s._id}
                onEnd={() => void run({ _id: s._id })}
              />
            ))}
          </Stack>
        )}
        {others > 0 && (
          <Group>
            <Button
              size="xs"
              color="red"
              variant="light"
              leftSection={<IconLogout size={14} />}
              loading={end.isPending && end.variables === 'others'}
              onClick={() => void run('others')}
            >
              End all other sessions
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
