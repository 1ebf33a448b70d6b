/**
 * SPEC §2 Leaderboard (/leaderboard): tabs SD (currency 1), SN (2) and Credits (3), kept in the URL; the
 * top holders with rank, nickname and amount; the member's own rank and balance, or `Log in to see where
 * you rank!`. Beyond SPEC: the five holders above and below the member ("Around you").
 */
import { Alert, Anchor, Box, Card, Group, Skeleton, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import type { Currency, Leader } from '@starlight/shared';
import { IconTrophy } from '@tabler/icons-react';
import { getRouteApi, Link } from '@tanstack/react-router';
import { formatMoney, formatMoneyWithTicker } from '../../../components/Money.tsx';
import { ApiError } from '../../../lib/api.ts';
import { useCurrencies } from '../../../lib/currencies.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { parseLeaderboardSearch } from '../../../lib/route-search.ts';
import { useSession } from '../../../lib/session.ts';
import { useLeaderboard } from '../api/get-leaderboard.ts';

const route = getRouteApi('/leaderboard');
const TABS = [
  { currencyId: 1, label: 'SD' },
  { currencyId: 2, label: 'SN' },
  { currencyId: 3, label: 'Credits' },
] as const;

function LeaderTable({
  rows,
  label,
  ownRank,
  currency,
}: {
  rows: Leader[];
  label: string;
  ownRank: number | null;
  currency: Currency | undefined;
}) {
  return (
    // Long nicknames wrap; only a 32-character nickname beside a 15-digit amount scrolls on a phone.
    <Box style={{ overflowX: 'auto' }}>
      <Table striped verticalSpacing="xs" aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={60}>Rank</Table.Th>
            <Table.Th>Nickname</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((l) => {
            const own = l.rank === ownRank;
            return (
              <Table.Tr
                key={l.rank}
                bg={own ? 'var(--mantine-color-indigo-light)' : undefined}
                aria-current={own || undefined}
              >
                <Table.Td>{l.rank}</Table.Td>
                <Table.Td
                  fw={own ? 700 : undefined}
                  c={l.nickname === 'Anonymous' && !own ? 'dimmed' : undefined}
                  miw={120}
                  style={{ overflowWrap: 'anywhere' }}
                >
                  {l.nickname}
                  {own ? ' (you)' : ''}
                </Table.Td>
                <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
                  {formatMoney(l.amount, currency)}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Box>
  );
}

/**
 * Why a board did not load, in words: the server's refusal of the currency (a 400 naming the field
 * `"currencyId"`, or a 404) says the currency has no board; anything else keeps its own message.
 */
export function boardError(err: unknown): string {
  if (err instanceof ApiError && (err.status === 400 || err.status === 404))
    return 'This currency has no leaderboard. Choose another tab.';
  return errorMessage(err);
}

function Board({ currencyId }: { currencyId: number }) {
  const signedIn = useSession((s) => s.token !== null);
  const board = useLeaderboard(currencyId);
  const { byId } = useCurrencies();
  const currency = byId.get(currencyId);
  const ticker = currency?.ticker ?? '';
  if (board.isError)
    return (
      <Alert color="red" title="Could not load the leaderboard">
        {boardError(board.error)}
      </Alert>
    );
  if (!board.data) return <Skeleton h={240} />;
  const { leaders, position, balance, around } = board.data;
  return (
    <Stack gap="md">
      <Card withBorder radius="md" p="md" aria-live="polite">
        {!signedIn ? (
          <Text>
            <Anchor component={Link} to="/login">
              Log in to see where you rank!
            </Anchor>
          </Text>
        ) : position === null ? (
          <Text>You hold no {ticker} yet: you are not ranked.</Text>
        ) : (
          <Group gap="xl" style={{ rowGap: 'var(--mantine-spacing-xs)' }}>
            <Text>
              <Text span c="dimmed" inherit>
                Your rank{' '}
              </Text>
              <Text span fw={700} size="xl" inherit data-testid="own-rank">
                #{position}
              </Text>
            </Text>
            <Text>
              <Text span c="dimmed" inherit>
                Your balance{' '}
              </Text>
              <Text span fw={700} inherit data-testid="own-balance">
                {formatMoneyWithTicker(balance ?? '0', currency)}
              </Text>
            </Text>
          </Group>
        )}
      </Card>
      {around.length > 0 && (position ?? 0) > 1 && (
        <Card withBorder radius="md" p="md" component="section" aria-labelledby="around-title">
          <Title order={3} size="h4" id="around-title" mb="xs">
            Around you
          </Title>
          <LeaderTable rows={around} label="Around you" ownRank={position} currency={currency} />
        </Card>
      )}
      <Card withBorder radius="md" p="md" component="section" aria-labelledby="top-title">
        <Title order={3} size="h4" id="top-title" mb="xs">
          Top {ticker} holders
        </Title>
        {leaders.length === 0 ? (
          <Text c="dimmed" ta="center" py="lg">
            No holders yet
          </Text>
        ) : (
          <LeaderTable rows={leaders} label={`Top ${ticker} holders`} ownRank={position} currency={currency} />
        )}
      </Card>
    </Stack>
  );
}

export function LeaderboardPage() {
  const { currency = 1 } = route.useSearch({ select: parseLeaderboardSearch });
  const navigate = route.useNavigate();
  return (
    <Stack maw={760} mx="auto" gap="md">
      <Group gap="xs">
        <IconTrophy size={28} color="var(--mantine-color-yellow-5)" aria-hidden />
        <Title order={1} size="h2">
          Leader Board
        </Title>
      </Group>
      <Tabs
        value={String(currency)}
        onChange={(v) =>
          void navigate({ to: '/leaderboard', search: { currency: Number(v) as 1 | 2 | 3 }, replace: true })
        }
        keepMounted={false}
      >
        <Tabs.List grow>
          {TABS.map((t) => (
            <Tabs.Tab key={t.currencyId} value={String(t.currencyId)}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {TABS.map((t) => (
          <Tabs.Panel key={t.currencyId} value={String(t.currencyId)} pt="md">
            <Board currencyId={t.currencyId} />
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
