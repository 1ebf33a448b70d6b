/**
 * SPEC §2 Admin Console, User Control: the Administrate User dialog (role select Change Role / Admin /
 * User / Creator, active select True / False, the target nickname labelled User Id, Submit) and the User
 * Stats panel (date range with day / week / month shortcuts; Total, Verified Email Accounts, Wallet Users,
 * Anonymous Users, Disabled Accounts, Admin Users, Has Currency; empty 'No User Stats'). The figures are
 * the server's kept counts, shown with thousands separators. Member sessions (DESIGN §11.1): a member's
 * sign-in sessions, ended all at once, and their two-factor reset (`MemberSessionsCard`). Also a member's API
 * keys and withdrawal addresses (DESIGN §11.2).
 */
import { Button, Card, Group, Modal, NativeSelect, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { formatTotal, type UserStats } from '@starlight/shared';
import { IconUserCog } from '@tabler/icons-react';
import { useState } from 'react';
import { DateFilterInput } from '../../../components/DateFilterInput.tsx';
import { type RangeShortcut, shortcutRange } from '../../../lib/date-range.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { useAdministrateUser } from '../api/administrate-user.ts';
import { useUserStats } from '../api/get-user-stats.ts';
import { MemberSessionsCard } from './MemberSessionsCard.tsx';
import { UserApiKeysPanel } from './UserApiKeysPanel.tsx';
import { UserWithdrawAddressesPanel } from './UserWithdrawAddressesPanel.tsx';

const ROLE_OPTIONS = [
  { value: '', label: 'Change Role' },
  { value: 'admin', label: 'Admin' },
  { value: 'user', label: 'User' },
  { value: 'creator', label: 'Creator' },
];
const ACTIVE_OPTIONS = [
  { value: '', label: 'Active' },
  { value: 'true', label: 'True' },
  { value: 'false', label: 'False' },
];

function AdministrateUserDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const administrate = useAdministrateUser();
  const [nickname, setNickname] = useState('');
  const [role, setRole] = useState('');
  const [active, setActive] = useState('');
  const close = () => {
    setNickname('');
    setRole('');
    setActive('');
    onClose();
  };
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    try {
      const res = await administrate.mutateAsync({
        nickname: nickname.trim(),
        ...(role ? { role: role as 'admin' | 'user' | 'creator' } : {}),
        ...(active ? { active: active === 'true' } : {}),
      });
      toastSuccess(res.message);
      close();
    } catch (err) {
      toastError(errorMessage(err));
    }
  };
  return (
    <Modal opened={opened} onClose={close} title="Administrate User" centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="User Id"
            description="The member's nickname"
            required
            value={nickname}
            onChange={(e) => setNickname(e.currentTarget.value)}
            data-autofocus
          />
          <NativeSelect
            label="Role"
            data={ROLE_OPTIONS}
            value={role}
            onChange={(e) => setRole(e.currentTarget.value)}
          />
          <NativeSelect
            label="Active"
            data={ACTIVE_OPTIONS}
            value={active}
            onChange={(e) => setActive(e.currentTarget.value)}
          />
          <Text size="xs" c="dimmed">
            Changes take effect at once: the member's open sessions end and they sign in again.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button
              type="submit"
              loading={administrate.isPending}
              disabled={nickname.trim() === '' || (!role && !active)}
            >
              Submit
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

const STAT_LABELS: Array<[keyof UserStats, string]> = [
  ['total', 'Total'],
  ['verifiedEmailAccounts', 'Verified Email Accounts'],
  ['walletUsers', 'Wallet Users'],
  ['anonymousUsers', 'Anonymous Users'],
  ['disabledAccounts', 'Disabled Accounts'],
  ['adminUsers', 'Admin Users'],
  ['haveCurrency', 'Has Currency'],
];

function UserStatsPanel() {
  const [start, setStart] = useState<string | null>(null);
  const [end, setEnd] = useState<string | null>(null);
  const stats = useUserStats({ ...(start ? { startDate: start } : {}), ...(end ? { endDate: end } : {}) });
  useErrorToast(stats.error, stats.errorUpdatedAt);
  const shortcut = (kind: RangeShortcut) => {
    const range = shortcutRange(kind);
    setStart(range.start);
    setEnd(range.end);
  };
  const data = stats.data?.stats;
  return (
    <Card withBorder radius="md" p={{ base: 'sm', sm: 'lg' }} component="section" aria-labelledby="user-stats-title">
      <Stack>
        <div>
          <Title order={3} id="user-stats-title">
            User Stats
          </Title>
          <Text size="sm" c="dimmed">
            Accounts created in the range (whole UTC days), counted as members join and change.
          </Text>
        </div>
        <Group gap="xs">
          <Button size="xs" variant="light" onClick={() => shortcut('day')}>
            Prev day
          </Button>
          <Button size="xs" variant="light" onClick={() => shortcut('week')}>
            Prev week
          </Button>
          <Button size="xs" variant="light" onClick={() => shortcut('month')}>
            Prev month
          </Button>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <DateFilterInput label="Start date" value={start} onChange={setStart} />
          <DateFilterInput label="End date" value={end} onChange={setEnd} />
        </SimpleGrid>
        {!data || data.total === 0 ? (
          <Text c="dimmed" ta="center" py="md">
            {stats.isPending ? 'Loading…' : 'No User Stats'}
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }} spacing="sm" data-testid="user-stats">
            {STAT_LABELS.map(([key, label]) => (
              <Card key={key} withBorder radius="sm" p="sm">
                <Text size="xs" c="dimmed">
                  {label}
                </Text>
                <Text fw={700} size="lg">
                  {formatTotal(data[key])}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
        )}
      </Stack>
    </Card>
  );
}

export function UserControlTab() {
  const [opened, setOpened] = useState(false);
  return (
    <Stack>
      <Card withBorder radius="md" p={{ base: 'sm', sm: 'lg' }}>
        <Group justify="space-between">
          <div>
            <Title order={3}>User Control</Title>
            <Text size="sm" c="dimmed">
              Change a member's role, or deactivate and reactivate an account.
            </Text>
          </div>
          <Button leftSection={<IconUserCog size={16} />} onClick={() => setOpened(true)}>
            Administrate User
          </Button>
        </Group>
      </Card>
      <MemberSessionsCard />
      <UserStatsPanel />
      <UserApiKeysPanel />
      <UserWithdrawAddressesPanel />
      <AdministrateUserDialog opened={opened} onClose={() => setOpened(false)} />
    </Stack>
  );
}
