/**
 * SPEC §2 My Info: shortened nickname, Public/Private, e-mail (red when unverified), citizenship rank
 * by SD holdings with the rank table, fame, referral link with copy, wallet address, settings link.
 */
import {
  Anchor,
  Badge,
  Button,
  Card,
  CopyButton,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  CITIZEN_RANKS,
  citizenRank,
  fromNumeric,
  MAIN_CURRENCY_ID,
  shortenNickname,
  type User,
} from '@starlight/shared';
import { IconCopy, IconSettings } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useSendVerificationEmail } from '../../../lib/send-verification-email.ts';

/** The referral link shape of SPEC §2: /register/{nickname}. */
export function referralUrl(nickname: string): string {
  return `${window.location.origin}/register/${encodeURIComponent(nickname)}`;
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm">
      <Text c="dimmed" size="sm">
        {label}
      </Text>
      <div style={{ textAlign: 'right', minWidth: 0 }}>{children}</div>
    </Group>
  );
}

export function MyInfo({ user }: { user: User }) {
  const [ranksOpened, ranks] = useDisclosure(false);
  const sd = user.balances.find((b) => b.currencyId === MAIN_CURRENCY_ID)?.amount ?? '0';
  const rank = citizenRank(fromNumeric(sd));
  const link = referralUrl(user.nickname);
  const unverified = !user.isEmailVerified && !user.isWalletOnly;
  const verify = useSendVerificationEmail();
  const sendLink = async () => {
    try {
      toastSuccess((await verify.mutateAsync()).message);
    } catch (err) {
      toastError(errorMessage(err));
    }
  };
  return (
    <Card withBorder radius="md">
      <Group justify="space-between" mb="sm">
        <Title order={3} size="h4">
          My Info
        </Title>
        <Button component={Link} to="/userconfig" size="xs" variant="subtle" leftSection={<IconSettings size={14} />}>
          Settings
        </Button>
      </Group>
      <Stack gap="xs">
        <Row label="Nickname">
          <Tooltip label={user.nickname} disabled={user.nickname.length < 12}>
            <Text fw={600} data-testid="my-nickname">
              {shortenNickname(user.nickname)}
            </Text>
          </Tooltip>
        </Row>
        <Row label="Profile">
          <Badge color={user.isAnonymous ? 'gray' : 'teal'} variant="light">
            {user.isAnonymous ? 'Private' : 'Public'}
          </Badge>
        </Row>
        {user.email && (
          <Row label="E-mail">
            <Group gap="xs" justify="flex-end" wrap="nowrap">
              <Text size="sm" c={unverified ? 'red' : undefined} style={{ overflowWrap: 'anywhere' }}>
                {user.email}
              </Text>
              {unverified && (
                <Button size="compact-xs" variant="light" color="red" loading={verify.isPending} onClick={sendLink}>
                  Verify Email
                </Button>
              )}
            </Group>
          </Row>
        )}
        <Row label="Citizenship">
          <Group gap="xs" justify="flex-end">
            <Text size="sm">Member · {rank}</Text>
            <Button size="compact-xs" variant="subtle" onClick={ranks.open}>
              Ranks
            </Button>
          </Group>
        </Row>
        <Row label="Fame">
          <Text size="sm">{user.fame}</Text>
        </Row>
        <Row label="Referral link">
          <Group gap={4} justify="flex-end" wrap="nowrap">
            <Text size="xs" c="dimmed" truncate="start" maw={220}>
              {link}
            </Text>
            <CopyButton value={link}>
              {({ copy }) => (
                <Tooltip label="Copy referral link">
                  <Button
                    size="compact-xs"
                    variant="light"
                    aria-label="Copy referral link"
                    onClick={() => {
                      copy();
                      toastSuccess('Referral url copied to clipboard');
                    }}
                  >
                    <IconCopy size={14} />
                  </Button>
                </Tooltip>
              )}
            </CopyButton>
          </Group>
        </Row>
        {user.primaryWallet && (
          <Row label="Wallet">
            <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
              {user.primaryWallet}
            </Text>
          </Row>
        )}
      </Stack>
      <Modal opened={ranksOpened} onClose={ranks.close} title="Citizenship ranks" centered>
        <Text size="sm" c="dimmed" mb="sm">
          Your rank grows with your Stardust (SD) holdings.
        </Text>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Rank</Table.Th>
              <Table.Th ta="right">SD held</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {CITIZEN_RANKS.map((r) => (
              <Table.Tr key={r.name} fw={r.name === rank ? 700 : undefined}>
                <Table.Td>{r.name}</Table.Td>
                <Table.Td ta="right">{r.min.toLocaleString('en-GB')}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Anchor component={Link} to="/leaderboard" size="sm" mt="sm" display="block" onClick={ranks.close}>
          See the leader board
        </Anchor>
      </Modal>
    </Card>
  );
}
