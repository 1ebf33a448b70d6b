/**
 * SPEC §2 /synthchips: a card with the chips left (or `All Sold Out`), the price, a quantity form
 * (1 to 100) and Open Synth Chips; the published drop table beside it. Buying needs a signed-in member:
 * a visitor sees the sale and a link to log in instead of the form.
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  NumberInput,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { CREDITS_CURRENCY_ID } from '@starlight/shared';
import { IconCpu } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { formatMoneyWithTicker } from '../../../components/Money.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { useMe } from '../../../lib/me.ts';
import { toastSuccess } from '../../../lib/notify.ts';
import { useSession } from '../../../lib/session.ts';
import { useChipAction, useDropTable, useSynthChips } from '../api/synth-chips.ts';
import { rarityColor } from '../utils/rarity.ts';

export function SynthChipsPage() {
  const user = useSession((s) => s.user);
  const me = useMe();
  const sale = useSynthChips();
  const table = useDropTable();
  const buy = useChipAction('buySynthChips');
  const [amount, setAmount] = useState<number | string>(1);
  const n = typeof amount === 'number' && Number.isInteger(amount) && amount >= 1 && amount <= 100 ? amount : null;
  const balances = (me.data ?? user)?.balances ?? [];
  const held = balances.find((b) => b.currencyId === sale.data?.currencyId)?.amount ?? '0';
  const creditsCurrency = useCurrencies().byId.get(CREDITS_CURRENCY_ID);
  const credits = balances.find((b) => b.currencyId === CREDITS_CURRENCY_ID)?.amount ?? '0';
  const soldOut = sale.data?.remaining === 0;

  const submit = async () => {
    if (n === null) return;
    try {
      toastSuccess((await buy.mutateAsync(n)).message);
    } catch {
      // The mutation toasted the failure (useIdempotentMutation).
    }
  };

  return (
    <Stack maw={960} mx="auto" gap="md">
      <Group gap="xs">
        <IconCpu size={28} aria-hidden />
        <Title order={1} size="h2">
          Synth Chips
        </Title>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder radius="md" p="lg">
          {sale.isError ? (
            <Alert color="red">{errorMessage(sale.error)}</Alert>
          ) : !sale.data ? (
            <Skeleton h={160} />
          ) : (
            <Stack gap="sm">
              <Title order={2} size="h3">
                Alpha Synth Chip
              </Title>
              <Text data-testid="chips-remaining" fw={700} size="lg" c={soldOut ? 'red.4' : undefined}>
                {soldOut ? 'All Sold Out' : `${sale.data.remaining.toLocaleString('en-US')} left`}
              </Text>
              <Text>
                {formatMoneyWithTicker(sale.data.price, creditsCurrency, 'CR')} each · you hold{' '}
                <b data-testid="chips-held">{Number(held)}</b>
                {user && ` · you have ${formatMoneyWithTicker(credits, creditsCurrency, 'CR')}`}
              </Text>
              {!user ? (
                <Anchor component={Link} to="/login">
                  Log in to buy synth chips
                </Anchor>
              ) : (
                <Group align="end" gap="sm">
                  <NumberInput
                    label="Quantity"
                    min={0}
                    max={100}
                    allowDecimal={false}
                    allowNegative={false}
                    value={amount}
                    onChange={setAmount}
                    w={120}
                    error={n === null ? 'From 1 to 100' : undefined}
                  />
                  <Button onClick={() => void submit()} loading={buy.isPending} disabled={n === null || soldOut}>
                    Buy
                  </Button>
                </Group>
              )}
              <Button component={Link} to="/openasc" variant="light" disabled={Number(held) < 1}>
                Open Synth Chips
              </Button>
            </Stack>
          )}
        </Card>
        <Card withBorder radius="md" p="lg" component="section" aria-labelledby="drop-table-title">
          <Title order={2} size="h4" id="drop-table-title" mb="xs">
            Drop table ({table.data?.shipsPerChip ?? 5} ships per chip)
          </Title>
          <Table striped aria-label="Drop table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Rarity</Table.Th>
                <Table.Th>Odds</Table.Th>
                <Table.Th>Ships</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(table.data?.table ?? []).map((r) => (
                <Table.Tr key={r.rarity}>
                  {/* As wide as its rarity: the ships' list wraps, never the badge's word ("LEGEN…"). */}
                  <Table.Td w="1%" style={{ whiteSpace: 'nowrap' }}>
                    <Badge
                      variant="light"
                      color={rarityColor(r.rarity)}
                      data-testid="drop-rarity"
                      styles={{ root: { overflow: 'visible' }, label: { overflow: 'visible' } }}
                    >
                      {r.rarity}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{(Number(r.odds) * 100).toFixed(0)}%</Table.Td>
                  <Table.Td>{r.ships.join(', ')}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
